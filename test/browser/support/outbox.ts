import { lastMailTo, linkIn } from '../../utils/outbox';
import { BROWSER_DATA_DIR } from './server';

/** The newest e-mail the server sent to this address (it writes them to DATA_DIR/outbox). */
export async function waitForMail(address: string, matching: RegExp = /./, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mail = await lastMailTo(BROWSER_DATA_DIR, address);
    if (mail && matching.test(mail.text)) return mail;
    if (Date.now() > until) throw new Error(`no e-mail to ${address} matching ${matching}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export { linkIn };

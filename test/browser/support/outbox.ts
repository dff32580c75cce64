import { linkIn, readOutbox } from '../../utils/outbox';
import { BROWSER_DATA_DIR } from './server';

/**
 * The newest e-mail the server sent to this address whose text matches (it writes them to DATA_DIR/outbox). Another
 * e-mail sent after it (a sign-in from a browser new to the account, say) does not hide it.
 */
export async function waitForMail(address: string, matching: RegExp = /./, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await readOutbox(BROWSER_DATA_DIR))
      .filter((m) => m.to.toLowerCase().includes(address.toLowerCase()) && matching.test(m.text))
      .pop();
    if (mail) return mail;
    if (Date.now() > until) throw new Error(`no e-mail to ${address} matching ${matching}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export { linkIn };

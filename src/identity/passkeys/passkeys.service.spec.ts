import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { SessionsService } from '../sessions/sessions.service';
import { User } from '../../platform/database/entities/user.entity';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { callerOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { SoftAuthenticator } from '../../../test/utils/identity-providers/soft-authenticator';
import { PasskeysService } from './passkeys.service';

/** PUBLIC_URL of the test app: the relying party's origin. */
const ORIGIN = 'http://portal.test';

describe.each(SERVICE_DATABASES)('PasskeysService on %s', (database) => {
  const t = serviceApp(database);
  const passkeys = () => t().app.get(PasskeysService);
  const sessions = () => t().app.get(SessionsService);
  const reload = (id: number) => t().db.getRepository(User).findOneByOrFail({ id });
  const client = { ip: '203.0.113.5', userAgent: 'jest' };
  const status = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: { getStatus(): number }) => e.getStatus(),
    );

  /** An account signed in twice, with a passkey registered from the first session. */
  async function withPasskey() {
    const user = await createUser(t(), await createOrganisation(t()));
    const own = await sessions().start(user, client);
    const other = await sessions().start(user, client);
    const caller = callerOf(user, own.session.id);
    const key = new SoftAuthenticator(ORIGIN);
    const { response } = key.register(await passkeys().registrationOptions(caller));
    const item = await passkeys().register(caller, 'Laptop', response as unknown as RegistrationResponseJSON, client);
    return { user, caller, key, item, own, other, response };
  }

  it('registering a passkey marks the account and ends its other sessions, not the one that added it', async () => {
    const { user, item, own, other } = await withPasskey();
    expect(item).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    expect((await reload(user.id)).hasPasskey).toBe(true);
    expect(await sessions().isActive(own.session.id)).toBe(true);
    expect(await sessions().isActive(other.session.id)).toBe(false);
    expect(await passkeys().list(user.id)).toEqual([item]);
  });

  it('a registration challenge works once, and only for the account it was given to', async () => {
    const { caller, response } = await withPasskey();
    // A spent or foreign challenge: the ceremony must start again (401, as an expired challenge token).
    expect(await status(passkeys().register(caller, 'Again', response as unknown as RegistrationResponseJSON))).toBe(
      401,
    );
    const stranger = callerOf(await createUser(t(), await createOrganisation(t())));
    const key = new SoftAuthenticator(ORIGIN);
    const { response: theirs } = key.register(await passkeys().registrationOptions(caller));
    expect(await status(passkeys().register(stranger, 'Not mine', theirs as unknown as RegistrationResponseJSON))).toBe(
      401,
    );
    expect(await passkeys().list(stranger.id)).toEqual([]);
  });

  it('a password-less sign-in verifies once: the same assertion replayed, or a counter that went back, is refused', async () => {
    const { user, key } = await withPasskey();
    const options = await passkeys().authenticationOptions(null);
    const assertion = key.assert(options) as unknown as AuthenticationResponseJSON;
    const first = await passkeys().verifyAssertion(assertion, null);
    expect(first).toMatchObject({ ok: true, user: { id: user.id } });
    expect((await passkeys().verifyAssertion(assertion, null)).ok).toBe(false);

    const again = await passkeys().authenticationOptions(null);
    const cloned = key.assert(again, { counter: 1 }) as unknown as AuthenticationResponseJSON;
    expect((await passkeys().verifyAssertion(cloned, null)).ok).toBe(false);
  });

  it("at the MFA step another account's passkey is refused", async () => {
    const mine = await withPasskey();
    const theirs = await withPasskey();
    const options = await passkeys().authenticationOptions(mine.user.id);
    const assertion = theirs.key.assert(options, {
      credential: theirs.key.credentials[0],
    }) as unknown as AuthenticationResponseJSON;
    expect((await passkeys().verifyAssertion(assertion, await reload(mine.user.id))).ok).toBe(false);
  });

  it("removing the last passkey clears the mark; another account's passkey is a 404", async () => {
    const { user, caller, item } = await withPasskey();
    const stranger = callerOf(await createUser(t(), await createOrganisation(t())));
    expect(await status(passkeys().remove(stranger, item.id))).toBe(404);
    expect(await status(passkeys().rename(stranger, item.id, 'Mine now'))).toBe(404);
    await passkeys().remove(caller, item.id, client);
    expect((await reload(user.id)).hasPasskey).toBe(false);
    expect(await passkeys().list(user.id)).toEqual([]);
  });
});

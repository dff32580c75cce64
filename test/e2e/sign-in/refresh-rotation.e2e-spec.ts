import request from 'supertest';
import { RefreshToken } from '../../../src/identity/credentials/entities/refresh-token.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The refresh rotation in one statement (migration RefreshRotation1764000000000): the successor's
 * insertion claims its predecessor, so requests racing with one token rotate it once; the checks the
 * rotation makes in that statement (expiry, session, account) still refuse.
 */
describe('POST /refresh: the one-statement rotation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const refresh = (cookie: string) => request(t.http).post('/refresh').set('Cookie', cookie);
  const newCookie = (res: request.Response) =>
    ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('refreshToken='))
      ?.split(';')[0];
  const sessionOf = async (accessToken: string) => {
    const sid = (JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
    return t.db.getRepository(Session).findOneByOrFail({ id: sid });
  };

  it('rotates a token presented by many requests at once exactly once; the others get an access token and no cookie', async () => {
    const user = await createUser(t, await createOrganisation(t));
    const s = await login(t, user.email);
    const before = await sessionOf(s.accessToken);
    const answers = await Promise.all(Array.from({ length: 8 }, () => refresh(s.cookie)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const rotated = answers.map(newCookie).filter((c) => c && c !== 'refreshToken=');
    expect(rotated).toHaveLength(1);
    for (const r of answers) expect(r.body).toEqual({ success: true, newAccessToken: expect.any(String) });

    const tokens = await t.db
      .getRepository(RefreshToken)
      .find({ where: { sessionId: before.id }, order: { id: 'ASC' } });
    expect(tokens).toHaveLength(2);
    expect(tokens[0].usedAt).toBeInstanceOf(Date);
    expect(tokens[1]).toMatchObject({ replacesId: tokens[0].id, usedAt: null });
    const after = await sessionOf(s.accessToken);
    expect(after.endedAt).toBeNull();
    // The rotation marked the session refreshed when it claimed the token (the graced requests, later still).
    expect(after.lastRefreshAt.getTime()).toBeGreaterThanOrEqual(tokens[0].usedAt!.getTime());
    expect(tokens[0].usedAt!.getTime()).toBeGreaterThanOrEqual(before.lastRefreshAt.getTime());

    // The successor rotates in turn; the access tokens handed out work.
    const next = await refresh(rotated[0]!).expect(200);
    expect(newCookie(next)).toMatch(/^refreshToken=.+/);
    await request(t.http)
      .get('/api/users/current')
      .set('Authorization', `Bearer ${next.body.newAccessToken}`)
      .expect(200);
  });

  it('refuses an expired token and issues no successor', async () => {
    const user = await createUser(t, await createOrganisation(t));
    const s = await login(t, user.email);
    const session = await sessionOf(s.accessToken);
    await t.db
      .getRepository(RefreshToken)
      .update({ sessionId: session.id }, { expiresAt: new Date(Date.now() - 1000) });
    await refresh(s.cookie).expect(401);
    expect(await t.db.getRepository(RefreshToken).countBy({ sessionId: session.id })).toBe(1);
  });

  it("refuses the token of an account disabled behind the service's back and ends its session ('disabled')", async () => {
    const user = await createUser(t, await createOrganisation(t));
    const s = await login(t, user.email);
    await t.db.getRepository(User).update({ id: user.id }, { isDisabled: true });
    await refresh(s.cookie).expect(401);
    const session = await sessionOf(s.accessToken);
    expect(session).toMatchObject({ endReason: 'disabled' });
    expect(session.endedAt).toBeInstanceOf(Date);
    expect(await t.db.getRepository(RefreshToken).countBy({ sessionId: session.id })).toBe(1);
  });

  it('refuses the token of an ended session and issues no successor', async () => {
    const user = await createUser(t, await createOrganisation(t));
    const s = await login(t, user.email);
    await request(t.http).post('/auth/logout').set(s.auth).expect(200);
    await refresh(s.cookie).expect(401);
    const session = await sessionOf(s.accessToken);
    expect(await t.db.getRepository(RefreshToken).countBy({ sessionId: session.id })).toBe(1);
  });
});

import { IsNull } from 'typeorm';
import { sha256 } from '../../platform/crypto/secrets';
import { LIFETIMES } from '../../shared/limits';
import { ERROR_CODES } from '../../shared/messages';
import { SessionsService } from '../sessions/sessions.service';
import { User } from '../../platform/database/entities/user.entity';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { refusalOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { RefreshToken } from './entities/refresh-token.entity';
import { RefreshTokenService } from './refresh-token.service';

/** The rotation rules themselves; what a session does with their outcome is SessionsService's spec. */
describe.each(SERVICE_DATABASES)('RefreshTokenService: rotating refresh tokens on %s', (database) => {
  const t = serviceApp(database);
  const tokens = () => t().app.get(RefreshTokenService);
  const client = { ip: '203.0.113.7', userAgent: 'jest' };
  async function signedIn(organisation: Parameters<typeof createOrganisation>[1] = {}) {
    const user = await createUser(t(), await createOrganisation(t(), organisation));
    const { session, refreshToken } = await t().app.get(SessionsService).start(user, client);
    return { user, session: { id: session.id, userId: user.id }, refreshToken };
  }

  it('a token gives one successor, which rotates in turn; the old one stays in the database, used', async () => {
    const { session, refreshToken } = await signedIn();
    const first = await tokens().rotate(refreshToken);
    const rotated = { ...session, sessionRules: false, previousRefreshAt: expect.any(Date) };
    expect(first).toEqual({ session: rotated, refreshToken: expect.any(String) });
    const successor = (first as { refreshToken: string }).refreshToken;
    expect(successor).not.toBe(refreshToken);
    const second = await tokens().rotate(successor);
    expect(second).toEqual({ session: rotated, refreshToken: expect.any(String) });
    const rows = await t().db.getRepository(RefreshToken).findBy({ sessionId: session.id });
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.usedAt === null)).toHaveLength(1);
    // Each rotation tells when the session was refreshed before it: its predecessor's issue (the trigger has
    // already moved the session's own lastRefreshAt to now).
    const issued = rows.find((r) => r.tokenHash === sha256(successor))!.createdAt;
    expect((second as { session: { previousRefreshAt: Date } }).session.previousRefreshAt.getTime()).toBe(
      issued.getTime(),
    );
  });

  it.each([
    ['address ranges', { allowedIpRanges: ['10.0.0.0/8'] }],
    ['an idle limit', { sessionIdleMinutes: 15 }],
    ['a maximum age', { sessionMaxHours: 8 }],
  ])('the rotation tells whether the organisation has session rules for the refresh to check: %s', async (_, rules) => {
    const { session, refreshToken } = await signedIn(rules);
    expect(await tokens().rotate(refreshToken)).toEqual({
      session: { ...session, sessionRules: true, previousRefreshAt: expect.any(Date) },
      refreshToken: expect.any(String),
    });
    // The MFA requirement is not a session rule: the access token's check reads it with the account.
    const other = await signedIn({ mfaRequired: true });
    expect(await tokens().rotate(other.refreshToken)).toMatchObject({ session: { sessionRules: false } });
    // Single sign-on required: a session opened with a password must be asked whether the requirement covers it.
    const sso = await signedIn({ ssoRequired: true });
    expect(await tokens().rotate(sso.refreshToken)).toMatchObject({ session: { sessionRules: true } });
  });

  it('a used token within the grace is a second tab (no successor); after it, reuse: the session must end', async () => {
    const { session, refreshToken } = await signedIn();
    await tokens().rotate(refreshToken);
    // The second tab's session was last refreshed when the first tab used the token.
    expect(await tokens().rotate(refreshToken)).toEqual({
      session: { ...session, previousRefreshAt: expect.any(Date) },
    });
    const past = new Date(Date.now() - (LIFETIMES.REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);
    await t().db.getRepository(RefreshToken).update({ sessionId: session.id, replacesId: IsNull() }, { usedAt: past });
    expect(await tokens().rotate(refreshToken)).toEqual({ end: 'refresh-reuse', sessionId: session.id });
  });

  it('of parallel rotations of one token exactly one gets a successor, and the session keeps one usable token', async () => {
    const { session, refreshToken } = await signedIn();
    const outcomes = await Promise.all([...Array(6)].map(() => tokens().rotate(refreshToken)));
    expect(outcomes.filter((o) => 'refreshToken' in o)).toHaveLength(1);
    expect(outcomes.filter((o) => 'end' in o)).toHaveLength(0);
    expect(await t().db.getRepository(RefreshToken).countBy({ sessionId: session.id, usedAt: IsNull() })).toBe(1);
  });

  it('refuses no token, an unknown and an expired one; an account no longer active: the session must end', async () => {
    const invalid = { status: 401, code: ERROR_CODES.REFRESH_INVALID };
    expect(await refusalOf(tokens().rotate(undefined))).toEqual(invalid);
    expect(await refusalOf(tokens().rotate('not-a-token'))).toEqual(invalid);
    const expired = await signedIn();
    await t()
      .db.getRepository(RefreshToken)
      .update({ sessionId: expired.session.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await refusalOf(tokens().rotate(expired.refreshToken))).toEqual(invalid);
    const live = await signedIn();
    await t().db.getRepository(User).update({ id: live.user.id }, { isBlocked: true });
    expect(await tokens().rotate(live.refreshToken)).toEqual({ end: 'disabled', sessionId: live.session.id });
  });
});

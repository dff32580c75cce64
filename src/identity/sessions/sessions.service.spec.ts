import { IsNull } from 'typeorm';
import { RefreshToken } from '../credentials/entities/refresh-token.entity';
import { TrustedDevice } from '../trusted-devices/entities/trusted-device.entity';
import { ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';
import { LIFETIMES } from '../../shared/limits';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { callerOf, refusalOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { User } from '../../platform/database/entities/user.entity';
import { Session } from './entities/session.entity';
import { OrganisationSessions } from './organisation-sessions.service';
import { SessionsService } from './sessions.service';

describe.each(SERVICE_DATABASES)('SessionsService on %s', (database) => {
  const t = serviceApp(database);
  const service = () => t().app.get(SessionsService);
  const organisationSessions = () => t().app.get(OrganisationSessions);
  const client = { ip: '203.0.113.9', userAgent: 'jest' };

  describe('start: the concurrent-users limit', () => {
    it('refuses the sign-in past the limit; an account already online does not count twice', async () => {
      const org = await createOrganisation(t(), { maxConcurrentUsers: 1 });
      const [a, b] = [await createUser(t(), org), await createUser(t(), org)];
      await service().start(a, client);
      expect(await refusalOf(service().start(b, client))).toEqual({
        status: 403,
        code: ERROR_CODES.CONCURRENT_USERS_EXCEEDED,
      });
      await expect(service().start(a, client)).resolves.toMatchObject({ refreshToken: expect.any(String) });
      expect(await service().countOnline(org.id)).toBe(1);
    });

    it('holds under parallel sign-ins: of six accounts racing for two places, exactly two get in', async () => {
      const org = await createOrganisation(t(), { maxConcurrentUsers: 2 });
      const users = await Promise.all([...Array(6)].map(() => createUser(t(), org)));
      const results = await Promise.allSettled(users.map((u) => service().start(u, client)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
      expect(await service().countOnline(org.id)).toBe(2);
    });

    it("the vendor's organisation has no limit", async () => {
      const org = await createOrganisation(t(), { maxConcurrentUsers: 1, isVendor: true });
      const [a, b] = [await createUser(t(), org), await createUser(t(), org)];
      await service().start(a, client);
      await expect(service().start(b, client)).resolves.toBeDefined();
    });
  });

  describe('rotate: refresh tokens', () => {
    it('exchanges a token for its successor once; the successor rotates in turn', async () => {
      const org = await createOrganisation(t());
      const user = await createUser(t(), org);
      const { session, refreshToken } = await service().start(user, client);
      const first = await service().rotate(refreshToken);
      expect(first).toEqual({
        session: { id: session.id, userId: user.id, sessionRules: false, previousRefreshAt: expect.any(Date) },
        refreshToken: expect.any(String),
      });
      expect(first.refreshToken).not.toBe(refreshToken);
      await expect(service().rotate(first.refreshToken)).resolves.toMatchObject({ refreshToken: expect.any(String) });
    });

    it('a second tab within the grace gets no new token; reuse after it ends the session', async () => {
      const org = await createOrganisation(t());
      const user = await createUser(t(), org);
      const { session, refreshToken } = await service().start(user, client);
      await service().rotate(refreshToken);
      await expect(service().rotate(refreshToken)).resolves.toEqual({
        session: { id: session.id, userId: user.id, previousRefreshAt: expect.any(Date) },
      });
      expect(await service().isActive(session.id)).toBe(true);
      // The rotation happened longer ago than the grace allows.
      const past = new Date(Date.now() - (LIFETIMES.REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);
      await t()
        .db.getRepository(RefreshToken)
        .update({ sessionId: session.id, replacesId: IsNull() }, { usedAt: past });
      expect(await refusalOf(service().rotate(refreshToken))).toEqual({
        status: 401,
        code: ERROR_CODES.REFRESH_INVALID,
      });
      expect(await t().db.getRepository(Session).findOneByOrFail({ id: session.id })).toMatchObject({
        endReason: 'refresh-reuse',
      });
    });

    it('of parallel rotations of one token, exactly one gets a successor', async () => {
      const org = await createOrganisation(t());
      const user = await createUser(t(), org);
      const { refreshToken } = await service().start(user, client);
      const results = await Promise.all([...Array(5)].map(() => service().rotate(refreshToken)));
      expect(results.filter((r) => r.refreshToken !== undefined)).toHaveLength(1);
    });

    it('refuses an expired token, an unknown one and one of a disabled account (which ends its session)', async () => {
      const org = await createOrganisation(t());
      const user = await createUser(t(), org);
      const invalid = { status: 401, code: ERROR_CODES.REFRESH_INVALID };
      expect(await refusalOf(service().rotate('not-a-token'))).toEqual(invalid);
      expect(await refusalOf(service().rotate(undefined))).toEqual(invalid);

      const expired = await service().start(user, client);
      await t()
        .db.getRepository(RefreshToken)
        .update({ sessionId: expired.session.id }, { expiresAt: new Date(Date.now() - 1000) });
      expect(await refusalOf(service().rotate(expired.refreshToken))).toEqual(invalid);

      const live = await service().start(user, client);
      await t().db.getRepository(User).update({ id: user.id }, { isDisabled: true });
      expect(await refusalOf(service().rotate(live.refreshToken))).toEqual(invalid);
      expect(await t().db.getRepository(Session).findOneByOrFail({ id: live.session.id })).toMatchObject({
        endReason: 'disabled',
      });
    });
  });

  describe('ending sessions', () => {
    /** A device the account trusts for a minute. */
    const trustDevice = (userId: number) =>
      t()
        .db.getRepository(TrustedDevice)
        .insert({
          userId,
          tokenHash: `hash-${userId}`,
          label: 'Firefox on Linux',
          expiresAt: new Date(Date.now() + 60_000),
        });

    it('a password change ends every session but the one spared, and revokes the trusted devices', async () => {
      const org = await createOrganisation(t());
      const user = await createUser(t(), org);
      const kept = await service().start(user, client);
      const other = await service().start(user, client);
      await trustDevice(user.id);
      expect(await service().endAllForUsers([user.id], 'password-changed', kept.session.id)).toBe(1);
      expect(await service().isActive(kept.session.id)).toBe(true);
      expect(await service().isActive(other.session.id)).toBe(false);
      expect(await t().db.getRepository(TrustedDevice).countBy({ userId: user.id })).toBe(0);
    });

    it('a force log-off does not revoke trusted devices', async () => {
      const org = await createOrganisation(t());
      const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
      const user = await createUser(t(), org, { roleId: Role.VIEWER });
      await service().start(user, client);
      await trustDevice(user.id);
      const result = await organisationSessions().forceLogoff(callerOf(admin), [user.id], client);
      expect(result).toMatchObject({ success: true, sessionsEnded: 1 });
      expect(await t().db.getRepository(TrustedDevice).countBy({ userId: user.id })).toBe(1);
    });

    it("force log-off: another organisation's account is a 404 and nothing ends", async () => {
      const [org, other] = [await createOrganisation(t()), await createOrganisation(t())];
      const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
      const stranger = await createUser(t(), other, { roleId: Role.VIEWER });
      const { session } = await service().start(stranger, client);
      expect(await refusalOf(organisationSessions().forceLogoff(callerOf(admin), [stranger.id]))).toMatchObject({
        status: 404,
      });
      expect(await service().isActive(session.id)).toBe(true);
    });
  });
});

import { newUserEmailError } from './dto/user-changes.dto';
import { Repository } from 'typeorm';
import { AuditService } from '../../platform/audit/audit.service';
import { AuthUser } from '../../platform/web/auth-user';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { SessionsService } from '../sessions/sessions.service';
import { Role } from '../../shared/roles';
import { User } from '../../platform/database/entities/user.entity';
import { UsersService } from './users.service';
import { ProfileService } from './profile.service';
import { AccountLifecycleService, activeUsersLimitMessage } from './lifecycle/account-lifecycle.service';
import { NewUserService } from './new-user.service';
import { UserSearchService } from './search/user-search.service';
import { likePattern } from './search/text-match';
import { ERROR_CODES } from '../../shared/messages';
import { createOrganisation, createUser, PASSWORD } from '../../../test/utils/factories';
import { callerOf, refusalOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { testPassword } from '../../../test/utils/secrets';

const WRONG_PASSWORD = testPassword('Wrong');
const NEW_PASSWORD = testPassword('New');

describe('likePattern: search text taken literally', () => {
  it('escapes %, _ and \\ and wraps the text in wildcards', () => {
    expect(likePattern('ada')).toBe('%ada%');
    expect(likePattern('50%')).toBe('%50\\%%');
    expect(likePattern('a_b')).toBe('%a\\_b%');
    expect(likePattern('back\\slash')).toBe('%back\\\\slash%');
  });
});

describe('newUserEmailError: one message per failure (spec 000 §5)', () => {
  it('empty, too long, invalid, fine', () => {
    expect(newUserEmailError('')).toBe('User email must not be empty');
    expect(newUserEmailError(undefined)).toBe('User email must not be empty');
    expect(newUserEmailError(`${'a'.repeat(60)}@${'b'.repeat(40)}.com`)).toBe(
      'Entered email must be less than or equal to 100 characters.',
    );
    expect(newUserEmailError('nope')).toBe('Entered email is not a valid email');
    expect(newUserEmailError('jane@example.com')).toBeNull();
  });
});

describe('activeUsersLimitMessage', () => {
  it('names the allowed number', () => {
    expect(activeUsersLimitMessage(3)).toContain('allowed only 3 active user(s)');
  });
});

describe('UsersService (with in-memory repositories)', () => {
  type Row = Pick<User, 'id' | 'email' | 'organisationId' | 'isDisabled' | 'isBlocked'>;
  const rows: Row[] = [
    { id: 1, email: 'a@one.test', organisationId: 1, isDisabled: false, isBlocked: false },
    { id: 2, email: 'b@one.test', organisationId: 1, isDisabled: true, isBlocked: false },
    { id: 3, email: 'c@one.test', organisationId: 1, isDisabled: false, isBlocked: true },
    { id: 4, email: 'd@two.test', organisationId: 2, isDisabled: false, isBlocked: false },
  ];
  const orgs = [1, 2].map((id) => ({
    id,
    code: `ORG${id}`,
    name: `Org ${id}`,
    accountType: 'ORGANIZATION',
    applications: [],
    isSSOEnabled: false,
    allowedUsersNumber: 5,
    maxConcurrentUsers: 5,
  }));
  const usersRepo = {
    findOneBy: async ({ id }: { id: number }) => rows.find((r) => r.id === id) ?? null,
    find: async ({ where }: { where: { organisationId: number } }) =>
      rows.filter((r) => r.organisationId === where.organisationId),
  };
  const orgRepo = { findOneBy: async ({ id }: { id: number }) => orgs.find((o) => o.id === id) ?? null };
  const service = new UsersService(
    usersRepo as unknown as Repository<User>,
    orgRepo as unknown as Repository<Organisation>,
    {} as UserSearchService,
    {} as AuditService,
    {} as AccountLifecycleService,
  );
  const caller = (roles: Role[], organisationId = 1): AuthUser => ({
    id: 99,
    email: 'me@x.test',
    organisationId,
    sessionId: 's',
    authenticatedAt: new Date(),
    signInMethod: 'password',
    roles,
    isMFAEnforced: false,
    isMFAEnabled: false,
    hasPasskey: false,
  });

  it('findAccessible: a user of the own organisation, another organisation’s answered like a missing one (404)', async () => {
    await expect(service.findAccessible(caller([Role.SITE_ADMIN]), 1)).resolves.toMatchObject({ id: 1 });
    await expect(service.findAccessible(caller([Role.SITE_ADMIN]), 4)).rejects.toMatchObject({ status: 404 });
    await expect(service.findAccessible(caller([Role.SITE_ADMIN]), 404)).rejects.toMatchObject({ status: 404 });
    await expect(service.findAccessible(caller([Role.E_SUPPORT], 2), 1)).resolves.toMatchObject({ id: 1 });
  });

  it('organisation: counts as active only the users that may sign in', async () => {
    const info = await service.organisation(caller([Role.STANDARD_ADMIN]));
    expect(info).toMatchObject({ id: 1, code: 'ORG1', activeUsers: 1 });
    expect(info.users.map((u) => u.id)).toEqual([1, 2, 3]);
    await expect(service.organisation(caller([Role.STANDARD_ADMIN]), 2)).rejects.toMatchObject({ status: 404 });
    await expect(service.organisation(caller([Role.E_SUPPORT]), 2)).resolves.toMatchObject({ id: 2, activeUsers: 1 });
  });
});

describe.each(SERVICE_DATABASES)('UsersService account rules on %s', (database) => {
  const t = serviceApp(database);
  const users = () => t().app.get(UsersService);
  const newUsers = () => t().app.get(NewUserService);
  const sessions = () => t().app.get(SessionsService);
  const profile = () => t().app.get(ProfileService);
  const lifecycle = () => t().app.get(AccountLifecycleService);
  const client = { ip: '203.0.113.4', userAgent: 'jest' };
  const email = () => `new-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  async function organisationWithSiteAdmin(overrides: Partial<Organisation> = {}) {
    const org = await createOrganisation(t(), overrides);
    const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
    return { org, admin, caller: callerOf(admin) };
  }

  it('of parallel creations for the last active-user place, exactly one succeeds', async () => {
    const { org, caller } = await organisationWithSiteAdmin({ allowedUsersNumber: 2 });
    const results = await Promise.all(
      [...Array(5)].map(() => refusalOf(newUsers().add(caller, { userEmail: email() }, client))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(results.filter((r) => r?.code === ERROR_CODES.ACTIVE_USERS_LIMIT)).toHaveLength(4);
    expect(await lifecycle().countActive(org.id)).toBe(2);
  });

  it('a new user: temporary password, MFA enforced by default; a taken e-mail is a conflict', async () => {
    const { caller } = await organisationWithSiteAdmin();
    const userEmail = email();
    const { id } = await newUsers().add(caller, { userEmail }, client);
    expect(await t().db.getRepository(User).findOneByOrFail({ id })).toMatchObject({
      mustChangePassword: true,
      isMFAEnforced: true,
      isSSO: false,
    });
    expect(await refusalOf(newUsers().add(caller, { userEmail }))).toMatchObject({
      status: 409,
      code: ERROR_CODES.DUPLICATE_EMAIL,
    });
  });

  it('only a site admin creates a user without enforced MFA', async () => {
    const { org } = await organisationWithSiteAdmin();
    const admin = callerOf(await createUser(t(), org, { roleId: Role.STANDARD_ADMIN }));
    expect(await refusalOf(newUsers().add(admin, { userEmail: email(), isMFAEnforced: false }))).toMatchObject({
      status: 403,
    });
  });

  it('disabling ends the sessions; enabling again needs an active-user place', async () => {
    const { org, caller } = await organisationWithSiteAdmin({ allowedUsersNumber: 2 });
    const target = await createUser(t(), org, { roleId: Role.VIEWER });
    const { session } = await sessions().start(target, client);
    await users().disableUser(caller, { userId: target.id, isDisabled: true }, client);
    expect(await sessions().isActive(session.id)).toBe(false);
    await createUser(t(), org, { roleId: Role.VIEWER });
    expect(await refusalOf(users().disableUser(caller, { userId: target.id, isDisabled: false }))).toMatchObject({
      status: 409,
      code: ERROR_CODES.ACTIVE_USERS_LIMIT,
    });
    expect((await t().db.getRepository(User).findOneByOrFail({ id: target.id })).isDisabled).toBe(true);
  });

  it("another organisation's user is a 404 to an administrator", async () => {
    const { caller } = await organisationWithSiteAdmin();
    const stranger = await createUser(t(), await createOrganisation(t()));
    expect(await refusalOf(users().byId(caller, stranger.id))).toMatchObject({ status: 404 });
    expect(await refusalOf(users().disableUser(caller, { userId: stranger.id, isDisabled: true }))).toMatchObject({
      status: 404,
    });
  });

  it('a password change needs the current password and a new one; it ends every session of the account', async () => {
    const { admin, caller } = await organisationWithSiteAdmin();
    const { session } = await sessions().start(admin, client);
    expect(
      await refusalOf(
        profile().updatePassword(caller, { currentPassword: WRONG_PASSWORD, userPassword: NEW_PASSWORD }),
      ),
    ).toMatchObject({ status: 400, code: ERROR_CODES.INVALID_CREDENTIALS });
    expect(
      await refusalOf(profile().updatePassword(caller, { currentPassword: PASSWORD, userPassword: PASSWORD })),
    ).toMatchObject({ status: 400, code: ERROR_CODES.WEAK_PASSWORD });
    expect(await sessions().isActive(session.id)).toBe(true);
    await profile().updatePassword(caller, { currentPassword: PASSWORD, userPassword: NEW_PASSWORD }, client);
    expect(await sessions().isActive(session.id)).toBe(false);
  });
});

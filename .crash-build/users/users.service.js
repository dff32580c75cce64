"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.UsersService = exports.USER_MESSAGES = void 0;
exports.activeUsersLimitMessage = activeUsersLimitMessage;
exports.likePattern = likePattern;
exports.toListItem = toListItem;
exports.toSingleUser = toSingleUser;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const locks_1 = require("../database/locks");
const password_service_1 = require("../auth/password.service");
const app_exception_1 = require("../common/app.exception");
const auth_user_1 = require("../common/auth-user");
const secrets_1 = require("../common/crypto/secrets");
const app_config_module_1 = require("../config/app-config.module");
const mail_service_1 = require("../mail/mail.service");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const sessions_service_1 = require("../sessions/sessions.service");
const limits_1 = require("../shared/limits");
const messages_1 = require("../shared/messages");
const roles_1 = require("../shared/roles");
const user_entity_1 = require("./entities/user.entity");
const role_rules_1 = require("./role-rules");
exports.USER_MESSAGES = {
    NOT_FOUND: 'User not found.',
    ORGANISATION_NOT_FOUND: 'Organisation not found.',
    DUPLICATE_EMAIL: 'A user with this email already exists.',
    SSO_NOT_ENABLED: 'Single sign-on is not enabled for this organisation.',
    ONLY_SITE_ADMIN_SSO: 'Only a site admin can turn on single sign-on for a user.',
    ONLY_SITE_ADMIN_MFA: 'Only a site admin can change MFA enforcement.',
    OWN_PROFILE_ONLY: 'You can only change your own profile.',
    CURRENT_PASSWORD_WRONG: 'The current password is not correct.',
    SAME_PASSWORD: 'The new password must be different from the current one.',
    MFA_PENDING_OWN_ONLY: 'Site Admin has enforced MFA on your account. You must enable MFA to proceed further.',
    USER_ADDED_SUBJECT: `${messages_1.PRODUCT_NAME}: your new account`,
};
function activeUsersLimitMessage(allowed) {
    return `Your organisation is allowed only ${allowed} active user(s), and that many are active already. Disable another user first, or contact support to raise the limit.`;
}
/** Escapes LIKE wildcards so that the search text is taken literally (ESCAPE '\'). */
function likePattern(text) {
    return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
/** Users of an organisation: the list, a user, role and access changes, profile, password, new users. */
let UsersService = class UsersService {
    users;
    organisations;
    config;
    sessions;
    passwords;
    mail;
    constructor(users, organisations, config, sessions, passwords, mail) {
        this.users = users;
        this.organisations = organisations;
        this.config = config;
        this.sessions = sessions;
        this.passwords = passwords;
        this.mail = mail;
    }
    /**
     * The user with this id, if the caller may see them: same organisation, or any for E-Support.
     * Another organisation's user is answered exactly like a missing one (404), so ids reveal nothing.
     */
    async findAccessible(caller, userId) {
        const user = await this.users.findOneBy({ id: userId });
        if (!user || !(0, auth_user_1.canAccessOrganisation)(caller, user.organisationId))
            throw app_exception_1.AppException.notFound(exports.USER_MESSAGES.NOT_FOUND);
        return user;
    }
    async current(userId) {
        const user = await this.users.findOne({ where: { id: userId }, relations: { organisation: true } });
        if (!user?.organisation)
            throw app_exception_1.AppException.notFound(exports.USER_MESSAGES.NOT_FOUND);
        return toCurrentUser(user, user.organisation);
    }
    /** The current user when the session is still open and the account enabled; else null. */
    async currentForSession(userId, sessionId) {
        if (!(await this.sessions.isActive(sessionId)))
            return null;
        const user = await this.users.findOne({ where: { id: userId }, relations: { organisation: true } });
        if (!user?.organisation || user.isDisabled || user.isBlocked)
            return null;
        return toCurrentUser(user, user.organisation);
    }
    /** The organisation the caller works on: their own, or (E-Support only) the one asked for. */
    async organisationFor(caller, organisationId) {
        const id = organisationId ?? caller.organisationId;
        if (!(0, auth_user_1.canAccessOrganisation)(caller, id))
            throw app_exception_1.AppException.notFound(exports.USER_MESSAGES.ORGANISATION_NOT_FOUND);
        const org = await this.organisations.findOneBy({ id });
        if (!org)
            throw app_exception_1.AppException.notFound(exports.USER_MESSAGES.ORGANISATION_NOT_FOUND);
        return org;
    }
    /**
     * One page of the user list and the total, filtered and paged in the database (spec 000 §5 filter):
     * the text matches name or e-mail case-insensitively with % _ \ taken literally; 'hasAccess' is neither
     * blocked nor disabled; role 3 is the administrator flag, any other the main role.
     */
    async list(caller, query) {
        const org = await this.organisationFor(caller, query.organisationId);
        const page = query.page ?? 1;
        const pageSize = query.pageSize ?? limits_1.LIMITS.DEFAULT_PAGE_SIZE;
        // Only columns of IDX_users_org_search in the filters: the count reads the index alone, the page walks it in order.
        const filtered = () => {
            const qb = this.users.createQueryBuilder('u').where('u.organisationId = :org', { org: org.id });
            const text = query.searchText?.trim();
            if (text) {
                // SQLite's LIKE ignores ASCII case (as its LOWER() would); PostgreSQL needs ILIKE.
                const like = this.users.manager.connection.options.type === 'postgres' ? 'ILIKE' : 'LIKE';
                qb.andWhere(`((u.firstName || ' ' || u.lastName) ${like} :q ESCAPE '\\' OR u.email ${like} :q ESCAPE '\\')`, { q: likePattern(text) });
            }
            if (query.accessLevel === 'hasAccess')
                qb.andWhere('u.isBlocked = :no AND u.isDisabled = :no', { no: false });
            if (query.accessLevel === 'noAccess')
                qb.andWhere('(u.isBlocked = :yes OR u.isDisabled = :yes)', { yes: true });
            if (query.role === roles_1.Role.ADMINISTRATOR)
                qb.andWhere('u.isAdministrator = :yes', { yes: true });
            else if (query.role)
                qb.andWhere('u.roleId = :role', { role: query.role });
            return qb;
        };
        const count = () => filtered()
            .select('COUNT(*)', 'n')
            .getRawOne()
            .then((r) => Number(r?.n ?? 0));
        const pageQuery = filtered()
            .select([
            'u.id',
            'u.email',
            'u.isBlocked',
            'u.isDisabled',
            'u.roleId',
            'u.isAdministrator',
            'u.firstName',
            'u.lastName',
            'u.lastLoginAt',
            'u.isMFAEnforced',
            'u.isMFAEnabled',
            'u.isSSO',
        ])
            .orderBy('u.lastName', 'ASC')
            .addOrderBy('u.firstName', 'ASC')
            .addOrderBy('u.email', 'ASC')
            .offset((page - 1) * pageSize)
            .limit(pageSize);
        let rows;
        let totalRecords;
        if (query.searchText?.trim()) {
            // A text filter reads every row of the organisation anyway: count in the same pass (one scan, not two).
            const { entities, raw } = await pageQuery.addSelect('COUNT(*) OVER ()', 'total').getRawAndEntities();
            rows = entities;
            totalRecords = raw.length > 0 ? Number(raw[0].total) : page > 1 ? await count() : 0;
        }
        else {
            // Without text the page stops early in index order, and the count reads the covering index alone.
            [rows, totalRecords] = await Promise.all([pageQuery.getMany(), count()]);
        }
        return { items: rows.map(toListItem), totalRecords, page, pageSize, organisationId: org.id, organisationName: org.name };
    }
    /** GET /api/users/byId/{id}: one's own (any role, also while MFA enrolment is due) or, for the roles page, another's. */
    async byId(caller, userId) {
        if (userId !== caller.id) {
            if (caller.isMFAEnforced && !caller.isMFAEnabled)
                throw app_exception_1.AppException.forbidden(exports.USER_MESSAGES.MFA_PENDING_OWN_ONLY, messages_1.ERROR_CODES.MFA_ENROLMENT_REQUIRED);
            if (!caller.roles.some((r) => [roles_1.Role.E_SUPPORT, roles_1.Role.SITE_ADMIN, roles_1.Role.ADMINISTRATOR].includes(r)))
                throw app_exception_1.AppException.forbidden();
        }
        return toSingleUser(await this.findAccessible(caller, userId));
    }
    /** GET /auth/organisation: the organisation, its limits and a light list of its users. */
    async organisation(caller, organisationId) {
        const org = await this.organisationFor(caller, organisationId);
        const users = await this.users.find({
            select: { id: true, email: true, isDisabled: true, isBlocked: true },
            where: { organisationId: org.id },
            order: { email: 'ASC' },
        });
        return {
            id: org.id,
            code: org.code,
            name: org.name,
            accountType: org.accountType,
            applications: org.applications,
            isSSOEnabled: org.isSSOEnabled,
            allowedUsersNumber: org.allowedUsersNumber,
            maxConcurrentUsers: org.maxConcurrentUsers,
            activeUsers: users.filter((u) => !u.isDisabled && !u.isBlocked).length,
            users: users.map((u) => ({ id: u.id, userEmail: u.email, isDisabled: u.isDisabled, isBlocked: u.isBlocked })),
        };
    }
    countActive(organisationId, manager = this.users.manager) {
        return manager.getRepository(user_entity_1.User).countBy({ organisationId, isDisabled: false, isBlocked: false });
    }
    /**
     * Refuses one more active user when the organisation has its allowed number already (the vendor has no
     * limit). Takes the organisation's row lock inside `tx` first, so parallel creations and re-enablings
     * queue and the count they see includes each other's.
     */
    async assertRoomForActiveUser(tx, organisationId) {
        const org = await (0, locks_1.lockRow)(tx, organisation_entity_1.Organisation, organisationId);
        if (!org)
            throw app_exception_1.AppException.notFound(exports.USER_MESSAGES.ORGANISATION_NOT_FOUND);
        if (!org.isVendor && (await this.countActive(org.id, tx)) >= org.allowedUsersNumber) {
            throw app_exception_1.AppException.conflict(activeUsersLimitMessage(org.allowedUsersNumber), 'ACTIVE_USERS_LIMIT');
        }
        return org;
    }
    async updateRole(caller, dto) {
        const target = await this.findAccessible(caller, dto.userId);
        const choice = (0, role_rules_1.parseRoleIds)(dto.newUserRoleIds);
        if (typeof choice === 'string')
            throw app_exception_1.AppException.badRequest(choice);
        const refused = (0, role_rules_1.checkRoleChange)(caller, target, choice);
        if (refused)
            throw app_exception_1.AppException.forbidden(refused);
        await this.users.update({ id: target.id }, { roleId: choice.mainRole, isAdministrator: choice.isAdministrator });
        return { success: true };
    }
    async enforceMfa(caller, dto) {
        const target = await this.findAccessible(caller, dto.userId);
        const refused = (0, role_rules_1.checkManageable)(caller, target);
        if (refused)
            throw app_exception_1.AppException.forbidden(refused);
        if (target.isMFAEnforced !== dto.isMFAEnforced) {
            await this.users.manager.transaction(async (tx) => {
                await tx.getRepository(user_entity_1.User).update({ id: target.id }, { isMFAEnforced: dto.isMFAEnforced });
                await this.sessions.endAllForUsers([target.id], 'mfa-changed', undefined, tx);
            });
        }
        return { success: true };
    }
    async updateSso(caller, dto) {
        const target = await this.findAccessible(caller, dto.userId);
        const refused = (0, role_rules_1.checkManageable)(caller, target);
        if (refused)
            throw app_exception_1.AppException.forbidden(refused);
        if (dto.isSSOEnabled) {
            const org = await this.organisations.findOneByOrFail({ id: target.organisationId });
            if (!org.isSSOEnabled)
                throw app_exception_1.AppException.badRequest(exports.USER_MESSAGES.SSO_NOT_ENABLED);
        }
        await this.users.update({ id: target.id }, { isSSO: dto.isSSOEnabled });
        return { success: true };
    }
    /** Enables or disables an account; disabling ends its sessions, enabling respects the active-users limit. */
    async disableUser(caller, dto) {
        const target = await this.findAccessible(caller, dto.userId);
        const refused = (0, role_rules_1.checkManageable)(caller, target);
        if (refused)
            throw app_exception_1.AppException.forbidden(refused);
        await this.users.manager.transaction(async (tx) => {
            const current = await tx.getRepository(user_entity_1.User).findOneBy({ id: target.id });
            if (!current || current.isDisabled === dto.isDisabled)
                return;
            if (!dto.isDisabled && !current.isBlocked)
                await this.assertRoomForActiveUser(tx, target.organisationId);
            const changed = await tx.getRepository(user_entity_1.User).update({ id: target.id, isDisabled: !dto.isDisabled }, { isDisabled: dto.isDisabled });
            if (changed.affected && dto.isDisabled)
                await this.sessions.endAllForUsers([target.id], 'disabled', undefined, tx);
        });
        return { success: true };
    }
    async updateProfile(caller, dto) {
        if (dto.userId !== undefined && dto.userId !== caller.id)
            throw app_exception_1.AppException.forbidden(exports.USER_MESSAGES.OWN_PROFILE_ONLY);
        const changes = {};
        for (const key of ['firstName', 'lastName', 'jobTitle', 'department', 'location']) {
            if (dto[key] !== undefined)
                changes[key] = dto[key];
        }
        if (Object.keys(changes).length > 0)
            await this.users.update({ id: caller.id }, changes);
        return toSingleUser(await this.users.findOneByOrFail({ id: caller.id }));
    }
    /** The caller's own password: the current one is required; every other session of the account ends. */
    async updatePassword(caller, dto) {
        const user = await this.users.findOneByOrFail({ id: caller.id });
        if (!(await this.passwords.verify(user.passwordHash, dto.currentPassword))) {
            throw app_exception_1.AppException.badRequest(exports.USER_MESSAGES.CURRENT_PASSWORD_WRONG, messages_1.ERROR_CODES.INVALID_CREDENTIALS);
        }
        if (dto.currentPassword === dto.userPassword)
            throw app_exception_1.AppException.badRequest(exports.USER_MESSAGES.SAME_PASSWORD, messages_1.ERROR_CODES.WEAK_PASSWORD);
        await this.users.update({ id: user.id }, { passwordHash: await this.passwords.hash(dto.userPassword), mustChangePassword: false, passwordChangedAt: new Date() });
        await this.sessions.endAllForUsers([user.id], 'password-changed', caller.sessionId);
        return { success: true };
    }
    /**
     * Creates a user in the caller's organisation with a temporary password that must be changed at the first
     * sign-in, and e-mails it with the sign-in address. Defaults (spec 000 §9): MFA enforced, no SSO, base role.
     */
    async add(caller, dto) {
        const org = await this.organisationFor(caller);
        const choice = (0, role_rules_1.parseRoleIds)(dto.userRoleIds ?? [roles_1.BASE_ROLE]);
        if (typeof choice === 'string')
            throw app_exception_1.AppException.badRequest(choice);
        const refused = (0, role_rules_1.checkNewUserRole)(caller, choice);
        if (refused)
            throw app_exception_1.AppException.forbidden(refused);
        const isSSO = dto.isSSO ?? false;
        const isMFAEnforced = dto.isMFAEnforced ?? true;
        if (!(0, role_rules_1.canToggleAdministrator)(caller)) {
            if (isSSO)
                throw app_exception_1.AppException.forbidden(exports.USER_MESSAGES.ONLY_SITE_ADMIN_SSO);
            if (!isMFAEnforced)
                throw app_exception_1.AppException.forbidden(exports.USER_MESSAGES.ONLY_SITE_ADMIN_MFA);
        }
        if (isSSO && !org.isSSOEnabled)
            throw app_exception_1.AppException.badRequest(exports.USER_MESSAGES.SSO_NOT_ENABLED);
        if (await this.users.existsBy({ email: dto.userEmail }))
            throw app_exception_1.AppException.conflict(exports.USER_MESSAGES.DUPLICATE_EMAIL, 'DUPLICATE_EMAIL');
        // Hash before the transaction: argon2 takes tens of milliseconds and needs no lock.
        const password = (0, secrets_1.temporaryPassword)();
        const passwordHash = await this.passwords.hash(password);
        let user;
        try {
            user = await this.users.manager.transaction(async (tx) => {
                await this.assertRoomForActiveUser(tx, org.id);
                return tx.getRepository(user_entity_1.User).save(tx.getRepository(user_entity_1.User).create({
                    organisationId: org.id,
                    email: dto.userEmail,
                    passwordHash,
                    roleId: choice.mainRole,
                    isAdministrator: choice.isAdministrator,
                    isMFAEnforced,
                    isSSO,
                    mustChangePassword: true,
                }));
            });
        }
        catch (e) {
            if (e instanceof typeorm_2.QueryFailedError && /unique|duplicate/i.test(e.message))
                throw app_exception_1.AppException.conflict(exports.USER_MESSAGES.DUPLICATE_EMAIL, 'DUPLICATE_EMAIL');
            throw e;
        }
        const signIn = `${this.config.publicUrl}/logIn`;
        await this.mail.send({
            to: user.email,
            subject: exports.USER_MESSAGES.USER_ADDED_SUBJECT,
            text: `An account of ${org.name} has been created for you on ${messages_1.PRODUCT_NAME}.\n\n` +
                `Sign in at ${signIn}\n\nEmail: ${user.email}\nTemporary password: ${password}\n\n` +
                'You will be asked to choose a new password when you first sign in.' +
                (isMFAEnforced ? ' Your administrator requires multi-factor authentication: you will then set up an authenticator app on your profile page.' : ''),
        });
        return { success: true, id: user.id };
    }
};
exports.UsersService = UsersService;
exports.UsersService = UsersService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __param(1, (0, typeorm_1.InjectRepository)(organisation_entity_1.Organisation)),
    __param(2, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [typeorm_2.Repository,
        typeorm_2.Repository, Object, sessions_service_1.SessionsService,
        password_service_1.PasswordService,
        mail_service_1.MailService])
], UsersService);
function toListItem(u) {
    return {
        id: u.id,
        userEmail: u.email,
        isBlocked: u.isBlocked,
        isDisabled: u.isDisabled,
        userRoles: u.roles,
        firstName: u.firstName,
        lastName: u.lastName,
        lastLoginDateTime: u.lastLoginAt ? new Date(u.lastLoginAt).toISOString() : null,
        isMFAEnforced: u.isMFAEnforced,
        isMFAEnabled: u.isMFAEnabled,
        isSSO: u.isSSO,
    };
}
function toSingleUser(u) {
    return {
        id: u.id,
        organisationId: u.organisationId,
        isDisabled: u.isDisabled,
        isMFAEnforced: u.isMFAEnforced,
        isMFAEnabled: u.isMFAEnabled,
        isSSO: u.isSSO,
        firstName: u.firstName,
        lastName: u.lastName,
        userEmail: u.email,
        userUserRoleMapping: u.roles.map((roleId) => ({ roleId })),
        jobTitle: u.jobTitle,
        department: u.department,
        location: u.location,
    };
}
function toCurrentUser(user, organisation) {
    return {
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        organisationId: user.organisationId,
        organisationCode: organisation.code,
        masterAccountName: organisation.name,
        applications: organisation.applications,
        roles: user.roles.map((r) => ({ roleId: r, roleCode: roles_1.ROLE_CODES[r], roleName: roles_1.ROLE_NAMES[r] })),
        isMFAEnforced: user.isMFAEnforced,
        isMFAEnabled: user.isMFAEnabled,
        isSSO: user.isSSO,
    };
}
//# sourceMappingURL=users.service.js.map
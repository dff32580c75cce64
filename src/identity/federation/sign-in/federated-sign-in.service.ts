import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditService } from '../../../platform/audit';
import { assertMaySignIn, AuthService, SignedIn } from '../../auth';
import { AppException } from '../../../platform/web/app.exception';
import { encrypt } from '../../../platform/crypto/secrets';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { isUniqueViolation } from '../../../platform/database/unique-violation';
import { MailService } from '../../../platform/mail/mail.service';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { ClientInfo } from '../../../platform/web/request-context';
import { ERROR_CODES, PRODUCT_NAME } from '../../../shared/messages';
import { BASE_ROLE, effectiveRoles, Role, roleNames } from '../../../shared/roles';
import { RoleChoice } from '../../../shared/identity/account-rules';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { User } from '../../../platform/database/entities/user.entity';
import { organisationAdministrators } from '../../../platform/database/organisation-administrators';
import { accountEmail, AccountLifecycleService } from '../../users';
import { SsoConnection } from '../entities/sso-connection.entity';
import { SsoIdentity } from '../entities/sso-identity.entity';
import { VerifiedDomainsService } from '../../domains';
import { emailDomain } from '../../../shared/identity/domains';
import { SsoSession } from '../entities/sso-session.entity';
import { Requires } from '../../../platform/wiring';
import { InvitationConsent } from './invitation-consent';

/** What a provider asserted, after the protocol's own checks. */
export interface FederatedIdentity {
  subject: string;
  email?: string;
  emailVerified?: boolean;
  firstName?: string;
  lastName?: string;
  /** For single logout: OIDC sid and ID token, or SAML SessionIndex and NameID format. */
  providerSessionId?: string | null;
  idToken?: string;
  nameIdFormat?: string | null;
}

const SUBJECT_MAX = 300;

type Decision =
  | { kind: 'linked' | 'link'; user: User }
  | { kind: 'provision'; email: string; invitation: { id: number; choice: RoleChoice } | null }
  | { kind: 'refuse'; user: User | null; why: string; message: string };

const refusal = (user: User | null, why: string, message: string): Decision => ({ kind: 'refuse', user, why, message });

/**
 * Turns a provider's assertion into a session (docs/product-rules.md §6). A connection signs in only accounts of its own
 * organisation: the account its subject was linked to, or the account of an e-mail of a domain that
 * organisation verified, or (just-in-time, when the connection allows it) a new account for such an e-mail.
 * Everything else is refused and audited, in the connection's organisation and in the account's.
 */
@Injectable()
export class FederatedSignInService {
  private readonly logger = new Logger('SSO');
  /** An invited address's first sign-in through the provider creates its account and accepts the invitation. */
  @Requires(InvitationConsent) private readonly invitations!: InvitationConsent;

  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly domains: VerifiedDomainsService,
    private readonly auth: AuthService,
    private readonly lifecycle: AccountLifecycleService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
  ) {}

  private async refuse(
    c: SsoConnection,
    identity: FederatedIdentity,
    user: User | null,
    client: ClientInfo,
    why: string,
    message: string,
  ): Promise<never> {
    const summary = `Sign-in through '${c.name}' refused (${why}) for ${(identity.email ?? identity.subject).slice(0, 100)}`;
    const orgs = new Set([c.organisationId, ...(user ? [user.organisationId] : [])]);
    await this.audit.manager.transaction(async (tx) => {
      for (const organisationId of orgs)
        await this.audit.record(tx, {
          type: 'SSO_SIGN_IN_REFUSED',
          actor: 'anonymous',
          target: user,
          organisationId,
          client,
          summary,
          signIn: { method: 'sso', reason: 'SSO_REFUSED' },
        });
    });
    throw AppException.forbidden(message, ERROR_CODES.SSO_NOT_ALLOWED);
  }

  async signIn(c: SsoConnection, identity: FederatedIdentity, client: ClientInfo): Promise<SignedIn> {
    if (!identity.subject || identity.subject.length > SUBJECT_MAX)
      throw AppException.unauthorized(SSO_MESSAGES.FAILED, ERROR_CODES.SSO_FAILED);
    const user = await this.accountFor(c, identity, client);
    assertMaySignIn(user);
    return this.auth.signIn(user, client, 'sso', async (tx, session) => {
      await tx.getRepository(SsoSession).insert({
        sessionId: session.id,
        connectionId: c.id,
        subject: identity.subject,
        providerSessionId: identity.providerSessionId?.slice(0, 300) ?? null,
        idToken: identity.idToken ? encrypt(identity.idToken, this.config.encryptionKey) : null,
        nameIdFormat: identity.nameIdFormat?.slice(0, 200) ?? null,
      });
    });
  }

  /** The account this subject of the connection is linked to, if any. */
  async linkedAccount(c: SsoConnection, subject: string): Promise<User | null> {
    const linked = await this.db.getRepository(SsoIdentity).findOneBy({ connectionId: c.id, subject });
    if (!linked) return null;
    const user = await this.db.getRepository(User).findOneBy({ id: linked.userId });
    return user && user.organisationId === c.organisationId ? user : null;
  }

  /**
   * What a sign-in with this identity leads to, without changing anything: the account linked to the subject,
   * an account of a verified domain to link, a new account (just-in-time), or a refusal with its reason.
   */
  private async decide(c: SsoConnection, identity: FederatedIdentity): Promise<Decision> {
    const linked = await this.db
      .getRepository(SsoIdentity)
      .findOneBy({ connectionId: c.id, subject: identity.subject });
    if (linked) {
      const user = await this.db.getRepository(User).findOneBy({ id: linked.userId });
      if (user && user.organisationId === c.organisationId) return { kind: 'linked', user };
      return refusal(user, 'linked account of another organisation', SSO_MESSAGES.OTHER_ORGANISATION);
    }
    if (!identity.email) return refusal(null, 'no e-mail asserted', SSO_MESSAGES.NO_EMAIL);
    const { email } = accountEmail(identity.email);
    if (email === null) return refusal(null, 'malformed e-mail asserted', SSO_MESSAGES.EMAIL_INVALID);
    if (identity.emailVerified === false)
      return refusal(null, 'e-mail not verified by the provider', SSO_MESSAGES.EMAIL_NOT_VERIFIED);
    const existing = await this.db.getRepository(User).findOneBy({ email });
    // On a domain this organisation has not verified, the answer depends on the domain alone, never on whether
    // another organisation holds the address: one that another organisation verified is that organisation's.
    if (!(await this.domains.isVerified(c.organisationId, emailDomain(email)))) {
      const owner = await this.domains.organisationForEmail(email);
      if (owner !== null || (existing && existing.organisationId !== c.organisationId))
        return refusal(existing, 'address of another organisation', SSO_MESSAGES.OTHER_ORGANISATION);
      return refusal(existing, 'domain not verified by the organisation', SSO_MESSAGES.DOMAIN_NOT_VERIFIED);
    }
    if (existing && existing.organisationId !== c.organisationId)
      return refusal(existing, 'account of another organisation', SSO_MESSAGES.OTHER_ORGANISATION);
    if (existing) return { kind: 'link', user: existing };
    const invitation = await this.invitations.pendingInvitation(c.organisationId, email);
    if (!c.jitProvisioning && !invitation) return refusal(null, 'no account', SSO_MESSAGES.NO_ACCOUNT);
    return { kind: 'provision', email, invitation };
  }

  private async accountFor(c: SsoConnection, identity: FederatedIdentity, client: ClientInfo): Promise<User> {
    const decision = await this.decide(c, identity);
    switch (decision.kind) {
      case 'linked':
        return decision.user;
      case 'link':
        await this.link(c, identity.subject, decision.user.id);
        return decision.user;
      case 'provision':
        return this.provision(c, identity, decision.email, client, decision.invitation);
      case 'refuse':
        return this.refuse(c, identity, decision.user, client, decision.why, decision.message);
    }
  }

  /**
   * A test sign-in's verdict (the Single Sign-On page's 'Test connection'): what `signIn` would do with this
   * identity, from the same decision, but nothing is linked, created, audited as refused or signed in.
   */
  async assess(
    c: SsoConnection,
    identity: FederatedIdentity,
  ): Promise<{ outcome: 'SIGNS_IN' | 'CREATES_ACCOUNT' | 'REFUSED'; message: string }> {
    if (!identity.subject || identity.subject.length > SUBJECT_MAX)
      return { outcome: 'REFUSED', message: SSO_MESSAGES.FAILED };
    const decision = await this.decide(c, identity);
    if (decision.kind === 'refuse') return { outcome: 'REFUSED', message: decision.message };
    if (decision.kind === 'provision')
      return { outcome: 'CREATES_ACCOUNT', message: SSO_MESSAGES.TEST_CREATES_ACCOUNT(decision.email) };
    try {
      assertMaySignIn(decision.user);
    } catch (e) {
      if (!(e instanceof AppException)) throw e;
      return { outcome: 'REFUSED', message: (e.getResponse() as { message: string }).message };
    }
    return { outcome: 'SIGNS_IN', message: SSO_MESSAGES.TEST_SIGNS_IN(decision.user.email) };
  }

  private async link(c: SsoConnection, subject: string, userId: number, tx?: EntityManager): Promise<void> {
    try {
      await (tx ?? this.db).getRepository(SsoIdentity).insert({ connectionId: c.id, subject, userId });
    } catch (e) {
      // A parallel first sign-in of the same person linked it already.
      if (!isUniqueViolation(e) || tx) throw e;
    }
  }

  /**
   * Just-in-time account: created under the organisation's row lock, so parallel first logins queue and the
   * active-user limit counts each other. The same person's parallel first logins make one account.
   */
  private async provision(
    c: SsoConnection,
    identity: FederatedIdentity,
    email: string,
    client: ClientInfo,
    invitation: { id: number; choice: RoleChoice } | null,
  ): Promise<User> {
    const roleId: Role = invitation?.choice.mainRole ?? c.defaultRoleId ?? BASE_ROLE;
    const isAdministrator = invitation?.choice.isAdministrator ?? false;
    const roles = roleNames(effectiveRoles(roleId, isAdministrator));
    const how = invitation ? ', accepting an invitation,' : '';
    try {
      return await this.lifecycle.create(
        { type: 'self' },
        {
          organisationId: c.organisationId,
          email,
          passwordHash: null,
          firstName: identity.firstName?.slice(0, 100) ?? '',
          lastName: identity.lastName?.slice(0, 100) ?? '',
          roleId,
          isAdministrator,
          // The provider authenticates these accounts, with its own second factor.
          isMFAEnforced: false,
          isSSO: true,
          mustChangePassword: false,
        },
        {
          client,
          audit: {
            summary: `User ${email} created as ${roles} at the first sign-in${how} through '${c.name}'`,
            changes: { roles: { from: null, to: roles }, sso: { from: null, to: true } },
          },
          within: async (tx, created) => {
            if (invitation) await this.invitations.acceptThroughProvider(tx, invitation.id, created);
            await this.link(c, identity.subject, created.id, tx);
            await this.tellAdministrators(tx, created, c);
          },
        },
      );
    } catch (e) {
      if (e instanceof AppException && e.code === ERROR_CODES.DUPLICATE_EMAIL) {
        const raced = await this.db.getRepository(User).findOneBy({ email });
        if (raced && raced.organisationId === c.organisationId) {
          await this.link(c, identity.subject, raced.id);
          return raced;
        }
      }
      if (e instanceof AppException && e.code === ERROR_CODES.ACTIVE_USERS_LIMIT) {
        this.logger.warn(`Just-in-time account for connection ${c.id} refused: the active-user limit is reached`);
        return this.refuse(
          c,
          identity,
          null,
          client,
          'active-user limit reached',
          (e.getResponse() as { message: string }).message,
        );
      }
      throw e;
    }
  }

  /** The new-user notice to the organisation's site admins and administrators, committed with the account. */
  private async tellAdministrators(tx: EntityManager, created: User, c: SsoConnection) {
    const org = await tx.getRepository(Organisation).findOneByOrFail({ id: created.organisationId });
    const admins = await organisationAdministrators(tx, org.id);
    for (const admin of admins)
      await this.mail.send(
        {
          to: admin.email,
          subject: `${PRODUCT_NAME}: new user ${created.email}`,
          text:
            `${created.email} signed in for the first time through the corporate login '${c.name}', and an account of ` +
            `${org.name} was created for them as ${roleNames(created.roles)}.\n\n` +
            `Review it on the Users page: ${this.config.publicUrl}/users\n` +
            'To stop accounts being created this way, turn off just-in-time accounts on the Single Sign-On page.',
        },
        tx,
      );
  }
}

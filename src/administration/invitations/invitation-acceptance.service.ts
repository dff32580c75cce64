import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthService, SignedIn } from '../../identity/auth';
import { AppException } from '../../platform/web/app.exception';
import { ClientInfo } from '../../platform/web/request-context';
import { PasswordRulesService } from '../../identity/credentials/password-rules.service';
import { PasswordService } from '../../identity/credentials/password.service';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { InvitationConsent, SsoDiscoveryService } from '../../identity/federation';
import { Implements } from '../../platform/wiring';
import { RoleChoice } from '../../shared/identity/account-rules';
import { INVITATION_MESSAGES as M, InvitationPreview } from '../../shared/administration/invitations';
import { AUTH_MESSAGES, ERROR_CODES } from '../../shared/messages';
import { Role } from '../../shared/roles';
import { AccountLifecycleService } from '../../identity/users';
import { AcceptInvitationDto } from './dto/invitation.dto';
import { Invitation } from './entities/invitation.entity';
import { InvitationStore } from './invitation-store';

/**
 * The invited person's side (docs/api.md, 'Invitations'): the page's preview, and the acceptance that creates the
 * account through the lifecycle, inside the active-user limit, in the transaction that claims the invitation with a
 * conditional update (of two parallel accepts of one link, one creates the account). An invitation is also the
 * person's consent to an account at the first sign-in through the organisation's provider.
 */
@Injectable()
@Implements(InvitationConsent)
export class InvitationAcceptanceService implements InvitationConsent {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly store: InvitationStore,
    private readonly lifecycle: AccountLifecycleService,
    private readonly auth: AuthService,
    private readonly passwords: PasswordService,
    private readonly passwordRules: PasswordRulesService,
    private readonly discovery: SsoDiscoveryService,
  ) {}

  async preview(token: string): Promise<InvitationPreview> {
    const invitation = await this.store.open(token);
    const org = await this.db.getRepository(Organisation).findOneByOrFail({ id: invitation.organisationId });
    return {
      organisationName: org.name,
      email: invitation.email,
      inviterName: invitation.invitedByName,
      expiresAt: invitation.expiresAt.toISOString(),
      sso: await this.mustUseProvider(invitation),
    };
  }

  /**
   * Creates the account with the invited role and signs it in, as a password sign-in does. The password passes the
   * specification's rules (the DTO), then the rules of every password set (the organisation's minimum length and the
   * breached-password check) before the link is claimed, so a refused one leaves the link usable.
   */
  async accept(dto: AcceptInvitationDto, client: ClientInfo): Promise<SignedIn> {
    if (!dto.acceptToS) throw AppException.badRequest(AUTH_MESSAGES.TERMS_NOT_ACCEPTED, ERROR_CODES.TERMS_NOT_ACCEPTED);
    const invitation = await this.store.open(dto.token);
    if (await this.mustUseProvider(invitation)) throw AppException.forbidden(M.SSO_REQUIRED, ERROR_CODES.SSO_REQUIRED);
    await this.passwordRules.assertAcceptable(dto.password, 'password', invitation.organisationId);
    const passwordHash = await this.passwords.hash(dto.password);
    let user: User;
    try {
      user = await this.db.transaction(async (tx) => {
        // The link is claimed first: of parallel accepts of one link, the others find it used and create nothing.
        await this.store.claim(tx, invitation.id, dto.token);
        const created = await this.lifecycle.create(
          { type: 'self' },
          {
            organisationId: invitation.organisationId,
            email: invitation.email,
            roleId: invitation.roleId as Role,
            isAdministrator: invitation.isAdministrator,
            passwordHash,
            passwordChangedAt: new Date(),
            firstName: dto.firstName,
            lastName: dto.lastName,
            // As Create User's default (spec 000 §9): the person sets up an authenticator after signing in.
            isMFAEnforced: true,
            isSSO: false,
            mustChangePassword: false,
          },
          {
            client,
            audit: { summary: `User ${invitation.email} created by accepting an invitation` },
            within: (tx, made) => this.store.recordAccepted(tx, invitation.id, made),
          },
          tx,
        );
        return created;
      });
    } catch (e) {
      throw await this.acceptRefusal(e, invitation);
    }
    return this.auth.signIn(user, client, 'password');
  }

  /** An invitation is the person's consent to an account: the first sign-in through the provider creates it. */
  pendingInvitation(organisationId: number, email: string): Promise<{ id: number; choice: RoleChoice } | null> {
    return this.store.openFor(organisationId, email);
  }

  /** Inside the transaction that created the account at its first sign-in through the provider. */
  async acceptThroughProvider(tx: EntityManager, invitationId: number, user: User): Promise<void> {
    await this.store.claim(tx, invitationId);
    await this.store.recordAccepted(tx, invitationId, user);
  }

  /**
   * Whether the invited address signs in only through its organisation's provider: the organisation verified its
   * domain and has an enabled connection (the login card's discovery, read for this organisation only).
   */
  private async mustUseProvider(invitation: Invitation): Promise<boolean> {
    const found = await this.discovery.discoverFor(invitation.organisationId, invitation.email);
    return found.sso;
  }

  /** The lifecycle's refusals as the invitation page words them: a full organisation is USER_LIMIT_REACHED. */
  private async acceptRefusal(e: unknown, invitation: Invitation): Promise<unknown> {
    if (e instanceof AppException && e.code === ERROR_CODES.ACTIVE_USERS_LIMIT)
      return AppException.conflict(M.USER_LIMIT_REACHED, ERROR_CODES.USER_LIMIT_REACHED);
    return this.lifecycle.addressRace(e, { type: 'self' }, invitation.organisationId, invitation.email);
  }
}

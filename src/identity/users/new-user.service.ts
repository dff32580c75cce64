import { Inject, Injectable } from '@nestjs/common';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { temporaryPassword } from '../../platform/crypto/secrets';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { PasswordService } from '../credentials/password.service';
import { MailService } from '../../platform/mail/mail.service';
import { canToggleAdministrator, checkNewUserRole, parseRoleIds } from '../../shared/identity/account-rules';
import { NewUserResult } from '../../shared/api-types';
import { PRODUCT_NAME } from '../../shared/messages';
import { BASE_ROLE, effectiveRoles, roleNames } from '../../shared/roles';
import { AddUserDto } from './dto/user-changes.dto';
import { AccountLifecycleService } from './lifecycle/account-lifecycle.service';
import { USER_MESSAGES, UsersService } from './users.service';

/** A new user added by an administrator (POST /api/users/add): the account and its welcome e-mail, together. */
@Injectable()
export class NewUserService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: UsersService,
    private readonly passwords: PasswordService,
    private readonly mail: MailService,
    private readonly lifecycle: AccountLifecycleService,
  ) {}

  /**
   * Creates a user in the caller's organisation with a temporary password that must be changed at the first
   * sign-in, and e-mails it with the sign-in address. Defaults (spec 000 §9): MFA enforced, no SSO, base role.
   */
  async add(caller: AuthUser, dto: AddUserDto, client?: RequestContext): Promise<NewUserResult> {
    const org = await this.accounts.organisationFor(caller);
    const choice = parseRoleIds(dto.userRoleIds ?? [BASE_ROLE]);
    if (typeof choice === 'string') throw AppException.badRequest(choice);
    const refused = checkNewUserRole(caller, choice);
    if (refused) throw AppException.forbidden(refused);
    const isSSO = dto.isSSO ?? false;
    const isMFAEnforced = dto.isMFAEnforced ?? true;
    if (!canToggleAdministrator(caller)) {
      if (isSSO) throw AppException.forbidden(USER_MESSAGES.ONLY_SITE_ADMIN_SSO);
      if (!isMFAEnforced) throw AppException.forbidden(USER_MESSAGES.ONLY_SITE_ADMIN_MFA);
    }
    if (isSSO && !org.isSSOEnabled) throw AppException.badRequest(USER_MESSAGES.SSO_NOT_ENABLED);

    // Hash before the transaction: argon2 takes tens of milliseconds and needs no lock.
    // At least as long as the organisation's policy asks (its first-login change applies the policy again).
    const password = temporaryPassword(org.passwordMinLength);
    const passwordHash = await this.passwords.hash(password);
    const user = await this.lifecycle.create(
      { type: 'user', caller },
      {
        organisationId: org.id,
        email: dto.userEmail,
        passwordHash,
        roleId: choice.mainRole,
        isAdministrator: choice.isAdministrator,
        isMFAEnforced,
        isSSO,
        mustChangePassword: true,
      },
      {
        client,
        audit: {
          changes: {
            roles: { from: null, to: roleNames(effectiveRoles(choice.mainRole, choice.isAdministrator)) },
            mfaEnforced: { from: null, to: isMFAEnforced },
            sso: { from: null, to: isSSO },
          },
        },
        // The user and the e-mail with the temporary password commit together: neither exists without the other.
        within: (tx, created) =>
          this.mail.send(
            {
              to: created.email,
              subject: USER_MESSAGES.USER_ADDED_SUBJECT,
              text:
                `An account of ${org.name} has been created for you on ${PRODUCT_NAME}.\n\n` +
                `Sign in at ${this.config.publicUrl}/logIn\n\nEmail: ${created.email}\nTemporary password: ${password}\n\n` +
                'You will be asked to choose a new password when you first sign in.' +
                (isMFAEnforced
                  ? ' Your administrator requires multi-factor authentication: you will then set up an authenticator app on your profile page.'
                  : ''),
            },
            tx,
          ),
      },
    );
    return { success: true, id: user.id };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { PasswordService } from '../../identity/credentials/password.service';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { temporaryPassword } from '../../platform/crypto/secrets';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { MailService } from '../../platform/mail/mail.service';
import { APPLICATIONS, ESupportCreated, SiteAdminCreated } from '../../shared/api-types';
import { EMAIL_PATTERN, LIMITS } from '../../shared/limits';
import { PRODUCT_NAME, ERROR_CODES } from '../../shared/messages';
import {
  APPLICATION_IDS,
  ORG_ADMIN_MESSAGES as M,
  SITE_ADMIN_FIRST_SIGN_IN,
} from '../../shared/administration/organisation-admin';
import { Role } from '../../shared/roles';
import { AccountActor, AccountLifecycleService } from '../../identity/users';
import { CreateESupportDto } from './dto/create-esupport.dto';
import { CreateSiteAdminDto } from './dto/create-site-admin.dto';
import { Organisation } from '../../platform/database/entities/organisation.entity';

/**
 * New organisations with their site admin, and new E-Support accounts (spec 001 §2.12, §2.13). Both
 * accounts get a temporary password by e-mail and must choose their own at the first sign-in.
 */
@Injectable()
export class OrganisationsService {
  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly passwords: PasswordService,
    private readonly mail: MailService,
    private readonly lifecycle: AccountLifecycleService,
  ) {}

  async createSiteAdmin(caller: AuthUser, dto: CreateSiteAdminDto, client?: RequestContext): Promise<SiteAdminCreated> {
    const individual = dto.accountType === 'Individual';
    const password = temporaryPassword();
    const passwordHash = await this.passwords.hash(password);
    const actor = { type: 'user', caller } as const;
    const { org, user } = await this.inTransaction(actor, caller.organisationId, dto.userEmail, async (tx) => {
      const duplicateCode = await tx
        .getRepository(Organisation)
        .createQueryBuilder('o')
        .where('LOWER(o.code) = LOWER(:code)', { code: dto.organizationCode })
        .getExists();
      if (duplicateCode) throw AppException.conflict(M.DUPLICATE_CODE, ERROR_CODES.DUPLICATE_ORGANISATION_CODE);
      const applications = [
        ...(dto.masterTaxManagerApplicationIds.includes(APPLICATION_IDS.TAX_MANAGER) ? [APPLICATIONS.TAX_MANAGER] : []),
        APPLICATIONS.CA_VIEWER,
      ];
      const org = await tx.getRepository(Organisation).save(
        tx.getRepository(Organisation).create({
          code: dto.organizationCode,
          // An individual account has no company name: it goes by its owner's e-mail.
          name: individual ? dto.userEmail : dto.organizationName,
          accountType: individual ? 'INDIVIDUAL' : 'ORGANIZATION',
          allowedUsersNumber: dto.allowedUsersNumber,
          maxConcurrentUsers: dto.maxConcurrentUsers,
          maxPortfolios: dto.maxPortfolios,
          applications,
          isSSOEnabled: dto.isSSO,
          ssoLogoutUrl: dto.isSSO && dto.ssoLogoutUrl ? dto.ssoLogoutUrl : null,
        }),
      );
      const user = await this.lifecycle.create(
        { type: 'user', caller },
        {
          organisationId: org.id,
          email: dto.userEmail,
          passwordHash,
          roleId: Role.SITE_ADMIN,
          isMFAEnforced: true,
          isSSO: dto.isSSO,
          mustChangePassword: true,
          passwordChangedAt: new Date(),
        },
        {
          client,
          audit: {
            type: 'ORGANISATION_CREATED',
            organisationId: org.id,
            summary: `Organisation ${org.name} (${org.code}) created with site admin ${dto.userEmail}`,
            changes: {
              organisation: { from: null, to: `${org.name} (${org.code})` },
              allowedUsersNumber: { from: null, to: org.allowedUsersNumber },
              maxConcurrentUsers: { from: null, to: org.maxConcurrentUsers },
              applications: { from: null, to: org.applications },
              ssoEnabled: { from: null, to: org.isSSOEnabled },
            },
          },
          // The account and the e-mail with its temporary password commit together.
          within: (tx, user) =>
            this.mail.send(
              {
                to: user.email,
                subject: `Your ${PRODUCT_NAME} site admin account`,
                text: [
                  `An account has been opened for ${org.name} (${org.code}) on ${PRODUCT_NAME}, with you as its site admin.`,
                  '',
                  `Email: ${user.email}`,
                  `Temporary password: ${password}`,
                  '',
                  `Sign in at ${this.config.publicUrl}/logIn.`,
                  '',
                  ...SITE_ADMIN_FIRST_SIGN_IN.MAIL_STEPS,
                ].join('\n'),
              },
              tx,
            ),
        },
        tx,
      );
      return { org, user };
    });
    return { success: true, message: M.SITE_ADMIN_CREATED, organisationId: org.id, userId: user.id };
  }

  /** A new E-Support account in the caller's (the vendor's) organisation: local part + SUPPORT_EMAIL_DOMAIN. */
  async createESupport(caller: AuthUser, dto: CreateESupportDto, client?: RequestContext): Promise<ESupportCreated> {
    const email = `${dto.userName}@${this.config.supportEmailDomain}`;
    if (!EMAIL_PATTERN.test(email) && !/^[^\s@]+@[^\s@]+$/.test(email)) throw AppException.badRequest(M.INVALID_EMAIL);
    if (email.length > LIMITS.EMAIL_MAX) throw AppException.badRequest(M.EMAIL_TOO_LONG);
    const password = temporaryPassword();
    const passwordHash = await this.passwords.hash(password);
    const user = await this.lifecycle.create(
      { type: 'user', caller },
      {
        organisationId: caller.organisationId,
        email,
        passwordHash,
        roleId: Role.E_SUPPORT,
        isMFAEnforced: true,
        mustChangePassword: true,
        passwordChangedAt: new Date(),
      },
      {
        client,
        audit: { type: 'ESUPPORT_CREATED', summary: `E-Support account ${email} created`, changes: undefined },
        within: (tx) =>
          this.mail.send(
            {
              to: email,
              subject: `Your ${PRODUCT_NAME} E-Support account`,
              text: [
                `An E-Support account has been created for you on ${PRODUCT_NAME}.`,
                '',
                `Email: ${email}`,
                `Temporary password: ${password}`,
                '',
                `Sign in at ${this.config.publicUrl}/logIn and choose your own password when asked.`,
              ].join('\n'),
            },
            tx,
          ),
      },
    );
    return { success: true, message: M.ESUPPORT_CREATED, userId: user.id, email };
  }

  /** A transaction whose unique-index race on the new account's e-mail is answered by the address rule. */
  private async inTransaction<T>(
    actor: AccountActor,
    organisationId: number,
    email: string,
    work: (tx: EntityManager) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (e) {
      throw await this.lifecycle.addressRace(e, actor, organisationId, email);
    }
  }
}

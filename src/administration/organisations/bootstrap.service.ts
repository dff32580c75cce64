import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ADVISORY_LOCKS } from '../../platform/database/migrate';
import { lockForTransaction } from '../../platform/database/raw-sql';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig, ConfigError } from '../../platform/config/env.validation';
import { BreachedPasswordsService } from '../../identity/credentials/breached-passwords.service';
import { SECURITY_MESSAGES } from '../../shared/messages';
import { temporaryPassword } from '../../platform/crypto/secrets';
import { PasswordService } from '../../identity/credentials/password.service';
import { AccountLifecycleService } from '../../identity/users';
import { Role } from '../../shared/roles';
import { Organisation } from '../../platform/database/entities/organisation.entity';

/**
 * On a start with an empty database: the vendor organisation and its first E-Support account
 * (docs/product-rules.md §1). Without BOOTSTRAP_SUPPORT_PASSWORD a password is generated, printed once, and must be
 * changed at the first sign-in.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly passwords: PasswordService,
    private readonly breached: BreachedPasswordsService,
    private readonly lifecycle: AccountLifecycleService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.db.getRepository(Organisation).count()) > 0) return;
    const generated = this.config.bootstrapSupportPassword === undefined;
    if (!generated && (await this.breached.isBreached(this.config.bootstrapSupportPassword!)))
      throw new ConfigError(
        `Invalid configuration: BOOTSTRAP_SUPPORT_PASSWORD is refused. ${SECURITY_MESSAGES.PASSWORD_BREACHED}`,
      );
    const password = this.config.bootstrapSupportPassword ?? temporaryPassword();
    const passwordHash = await this.passwords.hash(password);
    const created = await this.db.transaction(async (tx) => {
      // Instances started together on an empty PostgreSQL: one creates, the others find it done.
      await lockForTransaction(tx, ADVISORY_LOCKS.BOOTSTRAP);
      if ((await tx.getRepository(Organisation).count()) > 0) return false;
      const org = await tx.getRepository(Organisation).save(
        tx.getRepository(Organisation).create({
          code: 'VENDOR',
          name: 'Vendor Support',
          isVendor: true,
          allowedUsersNumber: 1000,
          maxConcurrentUsers: 1000,
          applications: ['TAX_MANAGER', 'CA_VIEWER'],
        }),
      );
      await this.lifecycle.create(
        { type: 'system' },
        {
          organisationId: org.id,
          email: this.config.bootstrapSupportEmail,
          passwordHash,
          firstName: 'Support',
          lastName: 'Admin',
          roleId: Role.E_SUPPORT,
          isMFAEnforced: false,
          mustChangePassword: generated,
          passwordChangedAt: new Date(),
        },
        {},
        tx,
      );
      return true;
    });
    if (!created) return;
    const line = '='.repeat(72);
    const message = generated
      ? `E-Support account created: ${this.config.bootstrapSupportEmail}\nTemporary password (shown once, change it at first login): ${password}`
      : `E-Support account created: ${this.config.bootstrapSupportEmail} (password from BOOTSTRAP_SUPPORT_PASSWORD)`;
    process.stdout.write(`\n${line}\n${message}\n${line}\n\n`);
    this.logger.log(`Vendor organisation created`);
  }
}

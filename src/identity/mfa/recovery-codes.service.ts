import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac, KeyObject, randomInt } from 'node:crypto';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { hmacKey } from '../../platform/crypto/secrets';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { MailService } from '../../platform/mail/mail.service';
import { ClientInfo } from '../../platform/web/request-context';
import { User } from '../../platform/database/entities/user.entity';
import { PRODUCT_NAME } from '../../shared/messages';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT, RecoveryCodesStatus } from '../../shared/identity/mfa-recovery';
import { RecoveryCode } from './entities/recovery-code.entity';

/** 'ABCDE-fghij', ' abcde fghij ' and 'abcdefghij' are the same code. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

function newCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/**
 * Ten single-use recovery codes per account with TOTP. Each code carries 50 random bits, so a
 * keyed fast hash (HMAC-SHA256 with a key derived from ENCRYPTION_KEY, salted by the user id) is enough:
 * guessing is bounded by the sign-in throttle, not by hashing cost, and a stolen table without the key
 * cannot even be tested offline (docs/decisions/recovery-codes-trusted-devices.md).
 */
@Injectable()
export class RecoveryCodesService {
  private readonly key: KeyObject;

  constructor(
    @InjectRepository(RecoveryCode) private readonly codes: Repository<RecoveryCode>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly mail: MailService,
    private readonly audit: AuditService,
  ) {
    this.key = hmacKey(createHmac('sha256', config.encryptionKey).update('mfa-recovery-codes').digest());
  }

  private hash(userId: number, code: string): string {
    return createHmac('sha256', this.key)
      .update(`${userId}:${normaliseRecoveryCode(code)}`)
      .digest('hex');
  }

  /** Inside `tx`: replaces the user's codes with a new set and returns it (shown once, never stored in clear). */
  async issue(tx: EntityManager, userId: number): Promise<string[]> {
    const fresh = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
    await tx.getRepository(RecoveryCode).delete({ userId });
    await tx
      .getRepository(RecoveryCode)
      .insert(fresh.map((code) => ({ userId, codeHash: this.hash(userId, code), usedAt: null })));
    return fresh;
  }

  /** Inside `tx`: the user's codes are gone (MFA switched off). */
  async removeAll(tx: EntityManager, userId: number): Promise<void> {
    await tx.getRepository(RecoveryCode).delete({ userId });
  }

  async status(userId: number): Promise<RecoveryCodesStatus> {
    return { remaining: await this.codes.countBy({ userId, usedAt: IsNull() }) };
  }

  /**
   * The MFA step with a recovery code: claims it with one conditional update (of two sign-ins with the
   * same code, exactly one wins), records the use and e-mails the owner in the same transaction.
   * Answers how many codes are left, or null when the code is wrong or used.
   */
  async consume(user: User, code: string, client?: ClientInfo): Promise<number | null> {
    const codeHash = this.hash(user.id, code);
    return this.codes.manager.transaction(async (tx) => {
      const claimed = await tx
        .getRepository(RecoveryCode)
        .update({ userId: user.id, codeHash, usedAt: IsNull() }, { usedAt: new Date() });
      if (!claimed.affected) return null;
      const left = await tx.getRepository(RecoveryCode).countBy({ userId: user.id, usedAt: IsNull() });
      await this.audit.record(tx, {
        type: 'RECOVERY_CODE_USED',
        actor: user,
        target: user,
        client,
        summary: `Signed in with a recovery code (${left} left)`,
      });
      await this.mail.send(
        {
          to: user.email,
          subject: `${PRODUCT_NAME}: a recovery code was used`,
          text:
            `A recovery code was used to sign in to your account. You have ${left} recovery code${left === 1 ? '' : 's'} left.\n\n` +
            'If it was you, consider setting up your authenticator app again and regenerating your recovery codes on your profile page.\n' +
            'If it was not you, change your password at once and tell your administrator.',
        },
        tx,
      );
      return left;
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { LIMITS } from '../../shared/limits';
import { ERROR_CODES } from '../../shared/messages';
import { SECURITY_POLICY_MESSAGES } from '../../shared/administration/security-policy';
import { BreachedPasswordsService } from './breached-passwords.service';

/**
 * The rules of a new password beyond the form's own (the specification's lengths, checked by the DTO), wherever
 * one is set (first-login change, profile, reset): the organisation's minimum length from its security policy,
 * then the breached-password check.
 */
@Injectable()
export class PasswordRulesService {
  constructor(
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly breached: BreachedPasswordsService,
  ) {}

  /** The organisation's minimum password length (the product's own when it set none). */
  async minimumLength(organisationId: number): Promise<number> {
    const org = await this.organisations.findOne({
      select: { id: true, passwordMinLength: true },
      where: { id: organisationId },
    });
    return Math.max(org?.passwordMinLength ?? LIMITS.PASSWORD_MIN, LIMITS.PASSWORD_MIN);
  }

  /** 400 naming `field` when the password is shorter than the organisation asks (WEAK_PASSWORD) or breached. */
  async assertAcceptable(password: string, field: string, organisationId: number): Promise<void> {
    const min = await this.minimumLength(organisationId);
    if (password.length < min) {
      const message = SECURITY_POLICY_MESSAGES.PASSWORD_TOO_SHORT(min);
      throw AppException.badRequest(message, ERROR_CODES.WEAK_PASSWORD, { errors: [{ field, message }] });
    }
    await this.breached.assertNotBreached(password, field);
  }
}

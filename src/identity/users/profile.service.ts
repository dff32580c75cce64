import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { RequestContext } from '../../platform/web/request-context';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { User } from '../../platform/database/entities/user.entity';
import { Requires } from '../../platform/wiring';
import { PasswordRulesService } from '../credentials/password-rules.service';
import { PasswordService } from '../credentials/password.service';
import { SessionsService } from '../sessions';
import { SingleUser, SuccessResult } from '../../shared/api-types';
import { ERROR_CODES } from '../../shared/messages';
import { DIRECTORY_OWNED_FIELDS, SCIM_MESSAGES } from '../../shared/identity/scim';
import { UpdatePasswordDto, UpdateProfileDto } from './dto/user-changes.dto';
import { CurrentPasswordGuesses } from './current-password-guesses';
import { storeNewPassword } from './store-new-password';
import { toSingleUser, USER_MESSAGES } from './users.service';

/** The caller's own account: their profile's fields, and their password (the current one required). */
@Injectable()
export class ProfileService {
  /** The sign-in's throttle, so that the current password here is guessed no faster than there. */
  @Requires(CurrentPasswordGuesses) private readonly currentPasswordGuesses!: CurrentPasswordGuesses;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly passwords: PasswordService,
    private readonly passwordRules: PasswordRulesService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
  ) {}

  async updateProfile(caller: AuthUser, dto: UpdateProfileDto): Promise<SingleUser> {
    if (dto.userId !== undefined && dto.userId !== caller.id)
      throw AppException.forbidden(USER_MESSAGES.OWN_PROFILE_ONLY);
    const changes: Partial<User> = {};
    for (const key of ['firstName', 'lastName', 'jobTitle', 'department', 'location'] as const) {
      if (dto[key] !== undefined) changes[key] = dto[key];
    }
    if (DIRECTORY_OWNED_FIELDS.some((key) => changes[key] !== undefined)) {
      // The directory's fields of an account it manages are its own: the next synchronisation would undo a change.
      const current = await this.users.findOneByOrFail({ id: caller.id });
      if (
        current.managedBy &&
        DIRECTORY_OWNED_FIELDS.some((k) => changes[k] !== undefined && changes[k] !== current[k])
      )
        throw AppException.forbidden(SCIM_MESSAGES.DIRECTORY_MANAGED_PROFILE, ERROR_CODES.DIRECTORY_MANAGED);
    }
    if (Object.keys(changes).length > 0) await this.users.update({ id: caller.id }, changes);
    return toSingleUser(await this.users.findOneByOrFail({ id: caller.id }));
  }

  /**
   * The caller's own password: the current one is required, under the sign-in's throttle (a wrong one counts as a
   * failed sign-in of the account from that address; five lock the pair, the right password included). Every
   * session of the account ends, this one included (docs/product-rules.md §3): whoever else held the old password,
   * or a session opened with it, is out at once.
   */
  async updatePassword(caller: AuthUser, dto: UpdatePasswordDto, client?: RequestContext): Promise<SuccessResult> {
    const user = await this.users.findOneByOrFail({ id: caller.id });
    const ip = client?.ip ?? '';
    await this.currentPasswordGuesses.allowGuess(user.email, ip);
    if ((await this.passwords.verifyAccount(user, dto.currentPassword)) !== 'right') {
      await this.currentPasswordGuesses.countWrongGuess(user.email, ip, user);
      throw AppException.badRequest(USER_MESSAGES.CURRENT_PASSWORD_WRONG, ERROR_CODES.INVALID_CREDENTIALS);
    }
    if (dto.currentPassword === dto.userPassword)
      throw AppException.badRequest(USER_MESSAGES.SAME_PASSWORD, ERROR_CODES.WEAK_PASSWORD);
    await this.passwordRules.assertAcceptable(dto.userPassword, 'userPassword', user.organisationId);
    const passwordHash = await this.passwords.hash(dto.userPassword);
    await this.users.manager.transaction((tx) =>
      storeNewPassword(tx, this.sessions, this.audit, user, passwordHash, {
        type: 'PASSWORD_CHANGED',
        actor: caller,
        client,
        summary: 'Password changed',
      }),
    );
    return { success: true };
  }
}

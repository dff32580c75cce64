import type { User } from '../../platform/database/entities/user.entity';

/**
 * The sign-in throttle as the profile's password change uses it, so that the current password is guessed there no
 * faster than at sign-in: the sign-in feature answers.
 */
export abstract class CurrentPasswordGuesses {
  /** 429 TOO_MANY_ATTEMPTS while the account and address may not try. */
  abstract allowGuess(email: string, ip: string): Promise<void>;
  /** A wrong current password, counted as a failed sign-in of the account from that address. */
  abstract countWrongGuess(email: string, ip: string, user: User): Promise<void>;
}

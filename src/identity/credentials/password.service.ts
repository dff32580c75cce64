import { Injectable, OnModuleInit } from '@nestjs/common';
import * as argon2 from 'argon2';
import { Semaphore } from 'async-mutex';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * How many hashes run at once: one per core, and fewer than libuv's threads (one, if it has only one). argon2 and
 * SQLite share libuv's pool (4 threads unless UV_THREADPOOL_SIZE says otherwise); with every thread hashing, each SQL
 * statement of every request waited behind a hash, so a burst of sign-ins stalled everyone's calls, and a login's own nine statements queued behind the other logins'
 * hashes. More hashes at once than cores finish no sooner.
 */
export function hashingSlots(
  cores = availableParallelism(),
  threads = Number(process.env.UV_THREADPOOL_SIZE) || 4,
): number {
  return Math.max(1, Math.min(cores, threads - 1));
}

/** What an account holds of its password. */
export interface PasswordHolder {
  passwordHash: string | null;
  /** Set when the owner reported a sign-in as not theirs: the password opens nothing until a new one is set. */
  passwordCompromisedAt: Date | null;
}

/**
 * An account's password checked: right, wrong, or right but blocked since its owner reported a sign-in as not theirs
 * (every caller answers 'blocked' exactly as 'wrong'; only the audit trail tells them apart).
 */
export type PasswordCheck = 'right' | 'wrong' | 'blocked';

/** argon2id hashing (OWASP's recommended parameters: 19 MiB, 2 passes). */
@Injectable()
export class PasswordService implements OnModuleInit {
  static readonly OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
  /**
   * A hash of a random secret, made at start with the parameters of every real hash: checking a password
   * against it costs what checking a real account's costs, so an unknown e-mail, or an account without a
   * password (SSO only), answers in the same time as a wrong password.
   */
  private dummy?: Promise<string>;
  private readonly slots = new Semaphore(hashingSlots());

  onModuleInit(): Promise<void> {
    return this.dummyHash().then(() => undefined);
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(32).toString('base64'));
    return this.dummy;
  }

  hash(password: string): Promise<string> {
    return this.slots.runExclusive(() => argon2.hash(password, PasswordService.OPTIONS));
  }

  /** argon2's verification in one of the hashing slots. */
  private check(hash: string, password: string): Promise<boolean> {
    return this.slots.runExclusive(() => argon2.verify(hash, password));
  }

  /**
   * The one check of an account's password, for sign-in, step-up and the password changes: the full verification
   * always runs (so a blocked password takes as long to refuse as a wrong one), then a password its owner reported
   * compromised is 'blocked'.
   */
  async verifyAccount(account: PasswordHolder | null | undefined, password: string): Promise<PasswordCheck> {
    if (!(await this.verify(account?.passwordHash, password))) return 'wrong';
    return account?.passwordCompromisedAt ? 'blocked' : 'right';
  }

  /** Whether the password matches the hash; without a hash, the same work is done and the answer is no. */
  async verify(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) {
      await this.check(await this.dummyHash(), password).catch(() => false);
      return false;
    }
    try {
      return await this.check(hash, password);
    } catch {
      return false;
    }
  }
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

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

  onModuleInit(): Promise<void> {
    return this.dummyHash().then(() => undefined);
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= argon2.hash(randomBytes(32).toString('base64'), PasswordService.OPTIONS);
    return this.dummy;
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, PasswordService.OPTIONS);
  }

  /** Whether the password matches the hash; without a hash, the same work is done and the answer is no. */
  async verify(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) {
      await argon2.verify(await this.dummyHash(), password).catch(() => false);
      return false;
    }
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}

import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** argon2id hashing (OWASP's recommended parameters: 19 MiB, 2 passes). */
@Injectable()
export class PasswordService {
  private readonly options = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
  /** A real hash of a random string: verifying against it costs the same as a real account. */
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, this.options);
  }

  async verify(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) {
      // Spend the same time as for a real account, so timing does not reveal which e-mails exist.
      this.dummy ??= argon2.hash(`no-account-${Math.random()}`, this.options);
      await argon2.verify(await this.dummy, password).catch(() => false);
      return false;
    }
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}

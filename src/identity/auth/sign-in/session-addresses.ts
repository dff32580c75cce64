import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, Repository } from 'typeorm';
import { Session } from '../../sessions';
import { KnownAddresses } from '../login-throttle.service';

/**
 * An address is known to an account when one of its sessions began there: the sessions table already records
 * every sign-in's address, so knowing one costs the sign-in nothing, and is asked only while the account is
 * under attack.
 */
@Injectable()
export class SessionAddresses implements KnownAddresses {
  constructor(@InjectRepository(Session) private readonly sessions: Repository<Session>) {}

  has(account: string, address: string, since: Date): Promise<boolean> {
    return this.sessions
      .createQueryBuilder('s')
      .innerJoin('users', 'u', 'u."id" = s."userId"')
      .where('u."email" = :account', { account })
      .andWhere('s."ip" = :address', { address: address.slice(0, 64) })
      .andWhere({ createdAt: MoreThan(since) })
      .getExists();
  }
}

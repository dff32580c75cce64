import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { AuthUser } from '../auth-user';

/**
 * Rate limits count per account for signed-in calls and per address only for anonymous ones, so an
 * office of many people behind one address (NAT, proxy) does not share one budget. Runs after the JWT
 * guard, which has put the caller on the request by then.
 */
@Injectable()
export class AccountThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const user = req.user as AuthUser | undefined;
    return user ? `account:${user.id}` : `address:${String(req.ip)}`;
  }
}

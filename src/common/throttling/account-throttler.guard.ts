import { ExecutionContext, Injectable } from '@nestjs/common';
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

  /**
   * The library's key, unhashed: its SHA-256 of route, limit and caller on every request bought nothing (the
   * keys stay in this process or in Redis either way) and cost more than the count itself.
   */
  protected override generateKey(context: ExecutionContext, suffix: string, name: string): string {
    return `${context.getClass().name}-${context.getHandler().name}-${name}-${suffix}`;
  }
}

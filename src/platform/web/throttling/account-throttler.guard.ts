import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { AuthUser } from '../auth-user';
import { ScimCaller } from '../scim-caller';

/**
 * Rate limits count per account for signed-in calls, per key for an organisation API key's, per provisioning token for a directory's SCIM calls, and
 * per address only for anonymous ones, so an office of many people behind one address (NAT, proxy) does not
 * share one budget. Runs after the JWT and provisioning-token guards, which have put the caller on the request.
 */
@Injectable()
export class AccountThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const user = req.user as AuthUser | undefined;
    if (user) return user.apiKey ? `api-key:${user.apiKey.id}` : `account:${user.id}`;
    const scim = req.scimToken as ScimCaller | undefined;
    return scim ? `scim-token:${scim.tokenId}` : `address:${String(req.ip)}`;
  }

  /**
   * The library's key, unhashed: its SHA-256 of route, limit and caller on every request bought nothing (the
   * keys stay in this process or in Redis either way) and cost more than the count itself.
   */
  protected override generateKey(context: ExecutionContext, suffix: string, name: string): string {
    return `${context.getClass().name}-${context.getHandler().name}-${name}-${suffix}`;
  }
}

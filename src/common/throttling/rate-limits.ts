import { ExecutionContext } from '@nestjs/common';
import { ThrottlerModuleOptions } from '@nestjs/throttler';

/**
 * The global rate limits (docs/decisions/perf-static-and-limits.md): a minute's budget per signed-in account, and a
 * larger one per address for anonymous calls, which many people behind one address share. Routes with
 * their own @Throttle (password reset, e-mailed codes, feedback) stay stricter.
 */
export const RATE_LIMITS = {
  WINDOW_MS: 60_000,
  PER_ACCOUNT: 600,
  PER_ADDRESS_ANONYMOUS: 1_500,
} as const;

export function rateLimitOptions(scale = 1): ThrottlerModuleOptions {
  return {
    throttlers: [
      {
        name: 'default',
        ttl: RATE_LIMITS.WINDOW_MS,
        limit: (context: ExecutionContext) => {
          const signedIn =
            context.getType() === 'http' && context.switchToHttp().getRequest<{ user?: unknown }>().user !== undefined;
          return (signedIn ? RATE_LIMITS.PER_ACCOUNT : RATE_LIMITS.PER_ADDRESS_ANONYMOUS) * scale;
        },
      },
    ],
  };
}

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
  /** A directory's provisioning token: a first synchronisation sends one call per user and group, back to back. */
  PER_SCIM_TOKEN: 3_000,
} as const;

export function rateLimitOptions(scale = 1): ThrottlerModuleOptions {
  return {
    throttlers: [
      {
        name: 'default',
        ttl: RATE_LIMITS.WINDOW_MS,
        limit: (context: ExecutionContext) => {
          const req =
            context.getType() === 'http'
              ? context.switchToHttp().getRequest<{ user?: unknown; scimToken?: unknown }>()
              : undefined;
          const limit =
            req?.user !== undefined
              ? RATE_LIMITS.PER_ACCOUNT
              : req?.scimToken !== undefined
                ? RATE_LIMITS.PER_SCIM_TOKEN
                : RATE_LIMITS.PER_ADDRESS_ANONYMOUS;
          return limit * scale;
        },
      },
    ],
  };
}

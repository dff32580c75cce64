import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ScimCaller } from '../scim-caller';
import { CurrentUserInfo } from '../../../shared/api-types';
import { AuthUser } from '../auth-user';

/** Hands the authenticated caller to a handler: `me(@CurrentUser() user: AuthUser)`. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest().user as AuthUser;
});

/** Where the JWT guard puts the caller of an `@Access.public({ session: 'optional' })` route. */
export const OPTIONAL_CALLER = 'optionalCaller';

/**
 * The caller of an `@Access.public({ session: 'optional' })` route when a valid access token of an open session came
 * (the one session check), else null; their profile is `@CurrentProfile()`.
 */
export const OptionalCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser | null => {
  return (ctx.switchToHttp().getRequest<Record<string, unknown>>()[OPTIONAL_CALLER] as AuthUser | undefined) ?? null;
});

/** The caller's profile (GET /api/users/current), read by the JWT guard in the same query as the session. */
export const CurrentProfile = createParamDecorator((_data: unknown, ctx: ExecutionContext): CurrentUserInfo => {
  return ctx.switchToHttp().getRequest().profile as CurrentUserInfo;
});

/** The provisioning token of an @Access.scim() call, as ScimTokenGuard found it. */
export const CurrentScimToken = createParamDecorator((_data: unknown, ctx: ExecutionContext): ScimCaller => {
  return ctx.switchToHttp().getRequest().scimToken as ScimCaller;
});

/** A sign-in step's challenge token, as the access guard verified it on an `@Access.challenge(step)` route. */
export interface SignInChallenge {
  /** A challenge token was sent (valid or not). */
  readonly given: boolean;
  /** The account the token was issued to for this step; throws the guard's refusal when none or no valid one came. */
  userId(): number;
}

/** The request's verified challenge (the access guard puts it there): for a strategy that reads the request. */
export function challengeOf(request: object): SignInChallenge {
  const challenge = (request as { challenge?: SignInChallenge }).challenge;
  // Only an @Access.challenge() route has one: reading it elsewhere is a programming error.
  if (!challenge) throw new Error('This route takes no sign-in challenge: declare it with @Access.challenge(step)');
  return challenge;
}

/** Hands the verified challenge of an `@Access.challenge(step)` route to its handler. */
export const CurrentChallenge = createParamDecorator((_data: unknown, ctx: ExecutionContext): SignInChallenge =>
  challengeOf(ctx.switchToHttp().getRequest<object>()),
);

import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ScimCaller } from '../scim-caller';
import { CurrentUserInfo } from '../../shared/api-types';
import { AuthUser } from '../auth-user';

/** Hands the authenticated caller to a handler: `me(@CurrentUser() user: AuthUser)`. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest().user as AuthUser;
});

/** The caller's profile (GET /api/users/current), read by the JWT guard in the same query as the session. */
export const CurrentProfile = createParamDecorator((_data: unknown, ctx: ExecutionContext): CurrentUserInfo => {
  return ctx.switchToHttp().getRequest().profile as CurrentUserInfo;
});

/** The provisioning token of a @ScimApi() call, as ScimTokenGuard found it. */
export const CurrentScimToken = createParamDecorator((_data: unknown, ctx: ExecutionContext): ScimCaller => {
  return ctx.switchToHttp().getRequest().scimToken as ScimCaller;
});

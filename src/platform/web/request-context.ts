import { browserTokenOf } from './http/browser-cookie';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Where a request came from, for the audit trail and the session list: the client address and user agent. */
export interface RequestContext {
  ip: string | null;
  userAgent: string | null;
  /** The browser cookie's token, when the request carries one (platform/web/http/browser-cookie.ts). */
  browser?: string | null;
}

/** Where a call came from, as far as it is known (a background task may know neither). */
export interface ClientInfo {
  ip?: string | null;
  userAgent?: string | null;
  browser?: string | null;
}

export function requestContextOf(req: {
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string>;
}): RequestContext {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: (Array.isArray(ua) ? ua[0] : ua) ?? null, browser: browserTokenOf(req) };
}

/** Hands the request's client address and user agent to a handler: `save(@Client() client: RequestContext)`. */
export const Client = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestContext =>
  requestContextOf(ctx.switchToHttp().getRequest()),
);

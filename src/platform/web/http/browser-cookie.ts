import { INestApplication, SetMetadata } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';
import { randomToken } from '../../crypto/secrets';
import { controllerRoutes, routeMatcher } from '../middleware/method-table';

/**
 * A long-lived HttpOnly cookie naming the browser (a random token), set on the way into a sign-in, so that a
 * sign-in from a browser the account has not used before can be told to its owner (docs/product-rules.md §10's new-browser
 * e-mail). It grants nothing: the server keeps only SHA-256 of the token per account.
 */
export const BROWSER_COOKIE = 'browser_id';
/** Chromium keeps a cookie at most 400 days. */
const BROWSER_COOKIE_DAYS = 400;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const SIGN_IN_STEP = 'browserCookie:signInStep';

/**
 * Marks a route where a sign-in starts or ends with the browser at hand (the login call, a corporate sign-in's start,
 * its OIDC return and SAML response): a request the router sends there carries a browser token.
 */
export const SignInStep = () => SetMetadata(SIGN_IN_STEP, true);

/** A request's method and path, as the router matches them. */
export type SignInRoutes = (method: string, path: string) => boolean;

/**
 * The routes marked {@link SignInStep}, matched as Express's router matches them (case, a trailing slash), read from
 * the routes themselves: whatever reaches a sign-in step's handler is seen here.
 */
export function signInRoutes(app: INestApplication): SignInRoutes {
  const steps = controllerRoutes(app)
    .filter((r) => Reflect.getMetadata(SIGN_IN_STEP, r.handler) === true)
    .map((r) => ({ method: r.method, matches: routeMatcher(r.path) }));
  return (method, path) =>
    steps.some((s) => (s.method === method || (s.method === 'GET' && method === 'HEAD')) && s.matches(path));
}

type WithCookies = Request & { cookies?: Record<string, string> };

/** The browser's token when the request carries a well-formed one, else null. */
export function browserTokenOf(req: { cookies?: Record<string, string> }): string | null {
  const value = req.cookies?.[BROWSER_COOKIE];
  return typeof value === 'string' && TOKEN.test(value) ? value : null;
}

/**
 * On a sign-in step's route, a browser without the cookie gets a token the request sees at once; the answer sets the cookie
 * only when the step succeeds (a refused sign-in answers without any cookie). SameSite=None on https, so that a
 * SAML response posted from the provider carries it too; Lax on plain http, where None is refused.
 */
export function browserCookie(secure: boolean, isSignInStep: SignInRoutes) {
  return (req: WithCookies, res: Response, next: NextFunction): void => {
    if (!browserTokenOf(req) && isSignInStep(req.method, req.path)) {
      const token = randomToken();
      req.cookies = { ...(req.cookies ?? {}), [BROWSER_COOKIE]: token };
      const writeHead = res.writeHead;
      res.writeHead = function writeHeadWithCookie(this: Response, ...args: Parameters<Response['writeHead']>) {
        const status = typeof args[0] === 'number' ? args[0] : res.statusCode;
        if (status < 400)
          res.cookie(BROWSER_COOKIE, token, {
            httpOnly: true,
            secure,
            sameSite: secure ? 'none' : 'lax',
            path: '/',
            maxAge: BROWSER_COOKIE_DAYS * 24 * 60 * 60 * 1000,
          });
        return writeHead.apply(this, args);
      } as Response['writeHead'];
    }
    next();
  };
}

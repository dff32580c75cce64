import { INestApplication, SetMetadata } from '@nestjs/common';
import { match } from 'path-to-regexp';
import { controllerRoutes } from '../middleware/method-table';

const SECRET_PARAMS = 'secretPaths:params';

/** What a secret path parameter is written as in the logs. */
export const REDACTED = '[redacted]';

/**
 * Names a route's path parameters that are secrets (a one-time link's token, a capability key): the request log
 * writes the route's path with `[redacted]` in their place (secretPathRedactor). A secret in a query is never logged
 * (the log writes no query).
 */
export const SecretInPath = (...params: string[]) => SetMetadata(SECRET_PARAMS, params);

/** A request path as the logs may write it. */
export type PathRedactor = (path: string) => string;

/**
 * The routes' secret parameters blanked out of a request path, read from the routes that declare them
 * ({@link SecretInPath}) and matched as Express's router matches (case, a trailing slash). A path that only begins
 * like such a route (`/api/invitations/by-token/<token>/more`, a 404) is blanked as far as it matches.
 */
export function secretPathRedactor(app: INestApplication): PathRedactor {
  const routes = controllerRoutes(app).flatMap((r) => {
    const secrets = Reflect.getMetadata(SECRET_PARAMS, r.handler) as string[] | undefined;
    if (!secrets) return [];
    const segments = r.path.split('/');
    // The positions of the secret parameters among the route's segments (`/a/by-token/:token`: 3).
    const positions = secrets.map((name) => {
      const at = segments.indexOf(`:${name}`);
      if (at < 0) throw new Error(`${r.path} has no parameter :${name} to keep out of the logs`);
      return at;
    });
    return [{ prefix: match(r.path, { sensitive: false, end: false, decode: false }), positions }];
  });
  if (routes.length === 0) return (path) => path;
  return (path) => {
    for (const route of routes) {
      if (route.prefix(path) === false) continue;
      const segments = path.split('/');
      for (const at of route.positions) segments[at] = REDACTED;
      return segments.join('/');
    }
    return path;
  };
}

/** The longest return path kept; a longer one is refused rather than cut. */
export const RETURN_PATH_MAX = 500;

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Percent-encoded slash, backslash or control character: a router or proxy that decodes them could leave the path. */
const ENCODED_SEPARATOR_OR_CONTROL = /%(2f|5c|[01][0-9a-f]|7f)/i;

/**
 * Where a `returnTo` (or any other "where to go next" value) may send the browser: a path of `origin`, or null.
 *
 * The value is resolved against the origin first, as the browser and `new URL()` will, and the result is what is
 * judged: dot segments (`/a/../..//host`), their encoded forms (`%2e`) and anything else the resolution rewrites
 * cannot turn an accepted value into a protocol-relative `//host` afterwards. Refused besides: anything not starting
 * with a single `/` (`//host`, `/\host`, `https:host`, `javascript:`), a backslash or control character anywhere
 * (browsers read `\` as `/` and drop tabs and newlines), and encoded slashes, backslashes and control characters.
 * The answer is the normalised path with its query and fragment, which resolves to itself again.
 */
export function safeReturnPath(value: unknown, origin: string): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > RETURN_PATH_MAX) return null;
  if (value[0] !== '/' || value[1] === '/' || value.includes('\\')) return null;
  if (CONTROL.test(value) || ENCODED_SEPARATOR_OR_CONTROL.test(value)) return null;
  let base: URL;
  let target: URL;
  try {
    base = new URL(origin);
    target = new URL(value, base);
  } catch {
    return null;
  }
  if (target.origin !== base.origin || target.username || target.password) return null;
  const path = `${target.pathname}${target.search}${target.hash}`;
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\') || CONTROL.test(path)) return null;
  // The normalised path must stand for itself: resolving it again lands on the same address.
  if (new URL(path, base).href !== target.href) return null;
  return path;
}

/** Where the portal's OpenID provider takes a sign-in back to the application: its interactions, under this path. */
export const PROVIDER_SIGN_IN_PREFIX = '/oidc/';

/**
 * Where a sign-in that leaves the portal's pages (a corporate round trip) may end instead of the portal's home: a
 * return path (safeReturnPath's rule) of the OpenID provider's sign-in, or null. Nothing else: a corporate sign-in
 * lands on the portal, whose client goes on to the last page worked on.
 */
export function providerReturnPath(value: unknown, origin: string): string | null {
  const path = safeReturnPath(value, origin);
  return path?.startsWith(PROVIDER_SIGN_IN_PREFIX) ? path : null;
}

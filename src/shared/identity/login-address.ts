/**
 * The login page's addresses: `/logIn`, in any case (the client's router matches paths without regard to case),
 * with or without a trailing slash. The server sends the pre-rendered card for them and the client hydrates it
 * there, so both must agree on exactly these paths.
 */
export function isLoginAddress(pathname: string): boolean {
  return /^\/login\/?$/i.test(pathname);
}

import { randomBytes } from 'node:crypto';

/** A password made for this test run (letters, digits and dashes, 20+ characters): no credential is written in code. */
export function testPassword(label = 'Test'): string {
  return `${label}-${randomBytes(9).toString('base64url')}-9`;
}

/** A client secret or token made for this test run. */
export function testSecret(label = 'secret'): string {
  return `${label}-${randomBytes(18).toString('base64url')}`;
}

/**
 * `url` with a user name and a password made for this test run in its user information (`scheme://user:…@host`),
 * set through the URL API: no credential, nor the shape of one, is written in code. Answers the URL and the password.
 */
export function withTestCredentials(url: string, user = 'user'): { url: string; password: string } {
  const withUser = new URL(url);
  const password = testSecret(user);
  withUser.username = user;
  withUser.password = password;
  return { url: withUser.href, password };
}

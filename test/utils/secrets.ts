import { randomBytes } from 'node:crypto';

/** A password made for this test run (letters, digits and dashes, 20+ characters): no credential is written in code. */
export function testPassword(label = 'Test'): string {
  return `${label}-${randomBytes(9).toString('base64url')}-9`;
}

/** A client secret or token made for this test run. */
export function testSecret(label = 'secret'): string {
  return `${label}-${randomBytes(18).toString('base64url')}`;
}

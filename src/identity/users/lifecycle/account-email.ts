import { isEmail } from 'class-validator';
import { newUserEmailError } from '../../../shared/validation';

/**
 * The one rule for an account's e-mail address, wherever it comes from: Create User, Create Site Admin, the
 * directory's userName, and what an identity provider asserts (OIDC claims, SAML NameID and attributes). Trimmed and
 * lower-cased (addresses are unique whatever their case), then the checks of spec 000 §5 in their order: not empty,
 * at most LIMITS.EMAIL_MAX, and a valid address (class-validator's isEmail: one '@', a dot-atom or quoted local part,
 * a domain name of labels with a top-level one, so no trailing dot).
 */
export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** What is wrong with an address (already normalised), or null. */
export function accountEmailProblem(value: unknown): string | null {
  return newUserEmailError(typeof value === 'string' ? value : '', (v) => isEmail(v));
}

/** The address in its stored form and null, or null and what is wrong with it. */
export function accountEmail(raw: unknown): { email: string; problem: null } | { email: null; problem: string } {
  const email = typeof raw === 'string' ? normaliseEmail(raw) : '';
  const problem = accountEmailProblem(email);
  return problem === null ? { email, problem } : { email: null, problem };
}

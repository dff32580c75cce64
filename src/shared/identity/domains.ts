/** Verified domains of an organisation (docs/product-rules.md §6): the facts the server and the client share. */

/** The label under which an organisation publishes its proof: `_tax-portal-verification.<domain>`. */
export const DOMAIN_TXT_LABEL = '_tax-portal-verification';

/** What the TXT record's value starts with, so it reads for what it is among a zone's other TXT records. */
export const DOMAIN_TXT_VALUE_PREFIX = 'tax-portal-verification=';

/** Not a figure of the specification: enough for a group of companies, few enough to list on one page. */
export const MAX_DOMAINS_PER_ORGANISATION = 50;

/** A DNS name of at least two labels of up to 63 characters, the last starting with a letter: no IP address. */
export const DOMAIN_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** The longest DNS name (RFC 1035). */
export const DOMAIN_MAX = 253;

export const DOMAIN_MESSAGES = {
  INVALID: 'Enter a domain name such as example.com (no http://, no e-mail address).',
  ALREADY_CLAIMED: 'Your organisation has already added this domain.',
  TAKEN: 'Another organisation has verified this domain. Contact support if it belongs to you.',
  TOO_MANY: `An organisation can add at most ${MAX_DOMAINS_PER_ORGANISATION} domains.`,
  NOT_FOUND: 'Domain not found.',
  NO_RECORD: 'No TXT record was found at that name yet. DNS changes can take a while to appear; try again later.',
  WRONG_VALUE: 'A TXT record was found at that name, but none of its values matches the one shown here.',
  DNS_UNAVAILABLE: 'The DNS lookup did not answer. Try again in a few minutes.',
  RECORD_MISSING: (domain: string, until: string) =>
    `The TXT record of ${domain} was not found at the last check. Publish it again before ${until}, or corporate sign-in stops trusting addresses of this domain.`,
} as const;

/** Days a verified domain keeps its status after its TXT record is found missing, for its owner to restore it. */
export const DOMAIN_RECORD_GRACE_DAYS = 7;

/** Why a verification failed, beside the 400 DOMAIN_NOT_VERIFIED code. */
export type DomainCheckFailure = 'NO_RECORD' | 'WRONG_VALUE' | 'DNS_UNAVAILABLE';

/** The TXT record name to publish for a domain. */
export function domainTxtName(domain: string): string {
  return `${DOMAIN_TXT_LABEL}.${domain}`;
}

/**
 * A domain as typed, in the form it is stored and compared: trimmed, lower-case, without a final dot.
 * Internationalised names must be given in their xn-- form; the server converts Unicode ones before this.
 */
export function normaliseDomain(input: string): string {
  return input.trim().toLowerCase().replace(/\.$/, '');
}

/** A name of Unicode letters, digits, hyphens and dots: what is converted to its xn-- form, not refused. */
export const UNICODE_DOMAIN_PATTERN = /^[\p{L}\p{N}\p{M}.-]+$/u;

/** Non-ASCII characters, or ASCII control characters. */
const NOT_PRINTABLE_ASCII = /[^ -~]/;

/** Whether the typed name holds characters beyond printable ASCII (an internationalised name, or junk). */
export function isUnicodeDomain(typed: string): boolean {
  return NOT_PRINTABLE_ASCII.test(typed);
}

/** What is wrong with a typed domain, or null. A Unicode name is left to the server, which converts it first. */
export function domainInputProblem(input: string): string | null {
  const typed = normaliseDomain(input);
  if (isUnicodeDomain(typed)) return UNICODE_DOMAIN_PATTERN.test(typed) ? null : DOMAIN_MESSAGES.INVALID;
  return typed.length <= DOMAIN_MAX && DOMAIN_PATTERN.test(typed) ? null : DOMAIN_MESSAGES.INVALID;
}

/** The domain part of an e-mail address, normalised; '' when there is none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : normaliseDomain(email.slice(at + 1));
}

/** POST /api/domains, GET /api/domains items. */
export interface DomainItem {
  id: number;
  organisationId: number;
  domain: string;
  verified: boolean;
  /** ISO date-time of the successful verification, or null. */
  verifiedAt: string | null;
  /** ISO date-time a verified domain's record was last looked up again, or null. */
  checkedAt: string | null;
  /**
   * ISO date-time since which a verified domain's record is missing, or null. Unless it is published again, the
   * domain stops being verified DOMAIN_RECORD_GRACE_DAYS later.
   */
  recordMissingSince: string | null;
  txtName: string;
  txtValue: string;
  createdAt: string;
}

/** POST /api/domains/{id}/verify on success. */
export interface DomainVerifyResult {
  verified: true;
}

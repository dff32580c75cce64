import { AppException } from '../../platform/web/app.exception';
import { ERROR_CODES } from '../../shared/messages';
import { SECURITY_POLICY_MESSAGES } from '../../shared/administration/security-policy';
import { addressAllowed, lifetimeOver, SessionTimes } from './security-policy-rules';

/**
 * What an organisation's security policy knows of one principal acting now: an open session (an access-token call,
 * a socket, a refresh, a step-up) or an organisation API key. Each door gathers these facts as cheaply as it can;
 * `policyVerdict` alone decides what they come to, so a rule holds at every door alike.
 */
export interface PolicyFacts {
  /** E-Support accounts are bound by no organisation's address ranges. */
  eSupport: boolean;
  /** The organisation's allowed address ranges (empty: every address). */
  ranges: readonly string[];
  /** A session's times under its organisation's lifetimes; null for an API key, which has neither. */
  session: SessionTimes | null;
  /**
   * The organisation's single sign-on requirement, read where it matters (a refresh, a step-up): whether it covers
   * this account (the SSO feature decides whom), whether the session came from the provider, and the proof a step-up
   * offers. Absent: not asked at this door.
   */
  sso?: { covered: boolean; sessionFromProvider: boolean; proof?: StepUpProof };
  /**
   * A support-access session (docs/support-access.md): whether its request still runs (not stopped or ended), its
   * end (ms), and whether the organisation still allows support access. Absent: the member's own session.
   */
  support?: { running: boolean; endsAt: number; allowed: boolean };
}

/** What a step-up offers as proof: the provider's fresh sign-in, the password, a passkey, or a second factor. */
export type StepUpProof = 'provider' | 'password' | 'passkey' | 'second-factor';

/**
 * Why a session ends now: its idle or age limit, single sign-on now required of a session opened otherwise, or a
 * support-access session stopped, at its end, or no longer allowed by its organisation.
 */
export type PolicyEnd = 'idle' | 'policy-max-age' | 'sso-required' | 'support-ended';

/**
 * What the policy makes of a principal acting now: null (go on), `end` (the session is over: end it, then refuse it
 * as any ended session), or `refuse` (this call is refused; the session stays).
 */
export type PolicyVerdict = null | { end: PolicyEnd } | { refuse: 'IP_NOT_ALLOWED' | 'SSO_REQUIRED' };

/**
 * The one decision of "may this principal act now under its organisation's policy": a support-access session's own
 * bounds first (stopped, past its end, or support access turned off end it), then the session's lifetimes
 * (an expired session ends whatever the address), then single sign-on (a session the requirement covers that was
 * opened otherwise ends; a step-up of a covered account by a way in the requirement replaces, its password or a
 * passkey, is refused), then the address ranges. `ip`: the client address as the request reads it (null: unknown,
 * inside no range).
 */
export function policyVerdict(facts: PolicyFacts, ip: string | null | undefined, now = Date.now()): PolicyVerdict {
  const support = facts.support;
  if (support && (!support.running || support.endsAt <= now || !support.allowed)) return { end: 'support-ended' };
  const over = facts.session ? lifetimeOver(facts.session, now) : null;
  if (over) return { end: over };
  if (facts.sso?.covered) {
    if (!facts.sso.sessionFromProvider) return { end: 'sso-required' };
    if (facts.sso.proof === 'password' || facts.sso.proof === 'passkey') return { refuse: 'SSO_REQUIRED' };
  }
  if (facts.ranges.length > 0 && !facts.eSupport && !addressAllowed(facts.ranges, ip))
    return { refuse: 'IP_NOT_ALLOWED' };
  return null;
}

/**
 * The answer to a refused call: 403 IP_NOT_ALLOWED from outside the ranges; 403 SSO_REQUIRED for a step-up that
 * must go through the provider (the session stays; the client steps up there).
 */
export function policyRefusal(refusal: 'IP_NOT_ALLOWED' | 'SSO_REQUIRED'): AppException {
  return refusal === 'IP_NOT_ALLOWED'
    ? AppException.forbidden(SECURITY_POLICY_MESSAGES.IP_NOT_ALLOWED, ERROR_CODES.IP_NOT_ALLOWED)
    : AppException.forbidden(SECURITY_POLICY_MESSAGES.SSO_REQUIRED, ERROR_CODES.SSO_REQUIRED);
}

import { PolicyFacts, policyVerdict } from './access-policy';

const NOW = Date.parse('2026-12-02T08:00:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000);
const session = (idle: number | null, maxHours: number | null, lastActive = 0, age = 0) => ({
  createdAt: minutesAgo(age),
  lastActiveAt: minutesAgo(lastActive),
  sessionIdleMinutes: idle,
  sessionMaxHours: maxHours,
});
const facts = (over: Partial<PolicyFacts> = {}): PolicyFacts => ({
  eSupport: false,
  ranges: [],
  session: null,
  ...over,
});

describe('policyVerdict: the one decision of the organisation’s policy', () => {
  it('lets through whoever no rule concerns', () => {
    expect(policyVerdict(facts(), '198.51.100.7', NOW)).toBeNull();
    expect(policyVerdict(facts({ session: session(5, 8, 4, 60) }), undefined, NOW)).toBeNull();
  });

  it('ends a session past its idle or age limit, whatever the address', () => {
    const ranges = ['10.0.0.0/8'];
    expect(policyVerdict(facts({ ranges, session: session(5, null, 5) }), '198.51.100.7', NOW)).toEqual({
      end: 'idle',
    });
    expect(policyVerdict(facts({ session: session(null, 1, 0, 60) }), null, NOW)).toEqual({ end: 'policy-max-age' });
  });

  it('refuses a call from outside the ranges, an API key (no session) alike; E-Support is not bound', () => {
    const ranges = ['10.0.0.0/8', '2001:db8::/32'];
    expect(policyVerdict(facts({ ranges }), '198.51.100.7', NOW)).toEqual({ refuse: 'IP_NOT_ALLOWED' });
    expect(policyVerdict(facts({ ranges }), null, NOW)).toEqual({ refuse: 'IP_NOT_ALLOWED' });
    expect(policyVerdict(facts({ ranges }), '::ffff:10.1.2.3', NOW)).toBeNull();
    expect(policyVerdict(facts({ ranges, eSupport: true }), '198.51.100.7', NOW)).toBeNull();
  });

  it('support access: ends a support session stopped, past its end, or no longer allowed, before any other rule', () => {
    const running = { running: true, endsAt: NOW + 60_000, allowed: true };
    const ranges = ['10.0.0.0/8'];
    expect(policyVerdict(facts({ support: running }), null, NOW)).toBeNull();
    expect(policyVerdict(facts({ support: { ...running, running: false } }), null, NOW)).toEqual({
      end: 'support-ended',
    });
    expect(policyVerdict(facts({ support: { ...running, endsAt: NOW } }), null, NOW)).toEqual({ end: 'support-ended' });
    expect(policyVerdict(facts({ ranges, support: { ...running, allowed: false } }), '198.51.100.7', NOW)).toEqual({
      end: 'support-ended',
    });
    // A running one is bound by the member's organisation's rules as the member is.
    expect(policyVerdict(facts({ ranges, support: running }), '198.51.100.7', NOW)).toEqual({
      refuse: 'IP_NOT_ALLOWED',
    });
  });

  it('single sign-on: ends a covered session opened otherwise; refuses a covered step-up by password or passkey', () => {
    const sso = (sessionFromProvider: boolean, proof?: 'provider' | 'password' | 'passkey' | 'second-factor') =>
      facts({ sso: { covered: true, sessionFromProvider, proof } });
    expect(policyVerdict(sso(false), null, NOW)).toEqual({ end: 'sso-required' });
    expect(policyVerdict(sso(false, 'provider'), null, NOW)).toEqual({ end: 'sso-required' });
    expect(policyVerdict(sso(true, 'password'), null, NOW)).toEqual({ refuse: 'SSO_REQUIRED' });
    expect(policyVerdict(sso(true, 'passkey'), null, NOW)).toEqual({ refuse: 'SSO_REQUIRED' });
    expect(policyVerdict(sso(true, 'provider'), null, NOW)).toBeNull();
    expect(policyVerdict(sso(true), null, NOW)).toBeNull();
    expect(policyVerdict(facts({ sso: { covered: false, sessionFromProvider: false } }), null, NOW)).toBeNull();
  });
});

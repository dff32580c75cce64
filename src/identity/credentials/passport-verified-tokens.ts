/** How many verified access tokens are kept (the least recently used goes first beyond this). */
export const PASSPORT_VERIFIED_MAX = 10_000;

/**
 * The access tokens whose signature passport-jwt (JwtStrategy) has verified, each kept no longer than its own
 * expiry: a signed token never changes, so the HTTP guard need not send the same one through passport's
 * authenticate chain and jsonwebtoken again. Only the signature is remembered: the session check (open session,
 * an account that may sign in, its roles, the token's expiry) still runs on every call. Keyed by the exact token
 * string, so a token changed in any character is not found and goes to passport-jwt.
 */
export class PassportVerifiedTokens {
  /** token → its `exp` (unix seconds), least recently used first. */
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly max = PASSPORT_VERIFIED_MAX,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Called by the strategy once passport-jwt has verified `token` and the session check has accepted it. */
  remember(token: string, exp: number): void {
    if (!this.live(exp)) return;
    this.expiries.delete(token);
    if (this.expiries.size >= this.max) this.expiries.delete(this.expiries.keys().next().value!);
    this.expiries.set(token, exp);
  }

  /** Whether passport-jwt verified exactly this token and it has not expired (jsonwebtoken's rule). */
  verified(token: string): boolean {
    const exp = this.expiries.get(token);
    if (exp === undefined) return false;
    this.expiries.delete(token);
    if (!this.live(exp)) return false;
    this.expiries.set(token, exp);
    return true;
  }

  private live(exp: number): boolean {
    // jsonwebtoken's own rule: expired once the clock's second reaches `exp`.
    return Math.floor(this.now() / 1000) < exp;
  }
}

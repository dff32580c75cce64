/**
 * The sessions that ended lately, as this instance heard of them (its own ends and those other instances
 * announce), so that a socket whose handshake read its session as open just before the end is dropped once it is
 * indexed, without asking the database again. A session is kept `keepMs`; at most `max` (the oldest go first).
 */
export class EndedSessions {
  private readonly at = new Map<string, number>();
  /** When a session was last let go before its time (more than `max` ended within `keepMs`). */
  private evictedAt = -Infinity;
  /** While the other instances' announcements may be missed (Redis away): since when; undefined when heard. */
  private deafSince: number | undefined;
  /** When the announcements were last heard again after a gap. */
  private heardAgainAt = -Infinity;

  constructor(
    readonly keepMs = 5 * 60_000,
    private readonly max = 100_000,
  ) {}

  add(sessionId: string, now = Date.now()): void {
    this.prune(now);
    this.at.delete(sessionId);
    this.at.set(sessionId, now);
    if (this.at.size > this.max) {
      this.at.delete(this.at.keys().next().value as string);
      this.evictedAt = now;
    }
  }

  /** Whether the session ended lately (an ended session never opens again). */
  has(sessionId: string, now = Date.now()): boolean {
    this.prune(now);
    return this.at.has(sessionId);
  }

  /**
   * Whether what is kept still answers for a handshake that began at `since`: it began within half the keeping
   * time, after the other instances' announcements were last missed, and no session was let go for want of room
   * within the keeping time. Otherwise the database is asked.
   */
  covers(since: number, now = Date.now()): boolean {
    return (
      now - since < this.keepMs / 2 &&
      this.deafSince === undefined &&
      since > this.heardAgainAt &&
      now - this.evictedAt >= this.keepMs
    );
  }

  /** The other instances' announcements may be missed from now on (the link to them is lost). */
  deaf(): void {
    this.deafSince ??= Date.now();
  }

  /** They are heard again: handshakes begun from now on are answered again. */
  hearing(now = Date.now()): void {
    this.deafSince = undefined;
    this.heardAgainAt = now;
  }

  private prune(now: number): void {
    const cutoff = now - this.keepMs;
    // In the order they ended: the first one kept ends the walk.
    for (const [id, at] of this.at) {
      if (at >= cutoff) break;
      this.at.delete(id);
    }
  }
}

/**
 * The notification ids this instance has delivered to its own sockets lately, so that each reaches them once
 * whichever way it comes: published here, told by another instance (late, from a queue, after Redis returns), or
 * replayed from the database after an outage. Ids are kept `keepMs`, and all of them from a held time on while
 * an outage is open; at most `max` (the oldest go first).
 */
export class DeliveredIds {
  private readonly at = new Map<number, number>();
  private heldSince: number | undefined;

  constructor(
    private readonly keepMs = 2 * 60_000,
    private readonly max = 100_000,
  ) {}

  /** Records the id; false when it was delivered already. */
  firstTime(id: number, now = Date.now()): boolean {
    this.prune(now);
    if (this.at.has(id)) return false;
    this.at.set(id, now);
    if (this.at.size > this.max) this.at.delete(this.at.keys().next().value as number);
    return true;
  }

  /** Keeps every id delivered from `since` on, until `release`. */
  hold(since: number): void {
    this.heldSince = Math.min(this.heldSince ?? since, since);
  }

  release(): void {
    this.heldSince = undefined;
  }

  private prune(now: number): void {
    const cutoff = Math.min(now - this.keepMs, this.heldSince ?? Infinity);
    // In delivery order: the first one kept ends the walk.
    for (const [id, at] of this.at) {
      if (at >= cutoff) break;
      this.at.delete(id);
    }
  }
}

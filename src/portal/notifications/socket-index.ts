/**
 * This instance's sockets by a key (a session, a user), in place of a socket.io room per session and per user:
 * a room keeps a set and an entry in two maps for every member, and nearly every such room has one member
 * (memory per connection). One socket is kept as itself; a set only once a key has two.
 */
export class LocalSocketIndex<K, S extends object> {
  private readonly entries = new Map<K, S | Set<S>>();

  add(key: K, socket: S): void {
    const entry = this.entries.get(key);
    if (entry === undefined) this.entries.set(key, socket);
    else if (entry instanceof Set) entry.add(socket);
    else if (entry !== socket) this.entries.set(key, new Set([entry, socket]));
  }

  remove(key: K, socket: S): void {
    const entry = this.entries.get(key);
    if (entry === socket) this.entries.delete(key);
    else if (entry instanceof Set) {
      entry.delete(socket);
      if (entry.size === 1) this.entries.set(key, entry.values().next().value!);
    }
  }

  /** The sockets under this key (a copy: dropping them while reading is safe). */
  get(key: K): S[] {
    const entry = this.entries.get(key);
    if (entry === undefined) return [];
    return entry instanceof Set ? [...entry] : [entry];
  }

  /** How many keys have sockets. */
  get size(): number {
    return this.entries.size;
  }
}

import type Redis from 'ioredis';

export interface AdapterLinkHandlers {
  /** The connection went down at `at` (or was not up yet when watching began). */
  lost(at: number): void;
  /** It is subscribed again: what the other instances published since `lostAt` may have been missed. */
  restored(lostAt: number): void;
}

/**
 * Watches the connection on which the socket.io Redis adapter receives the other instances' messages. Redis's
 * publish/subscribe keeps nothing for a subscriber that is away, so what was published while this connection was
 * down never arrives. Answers a function that stops the watch.
 */
export function watchAdapterLink(sub: Redis, handlers: AdapterLinkHandlers): () => void {
  let lostAt: number | undefined;
  const down = () => {
    if (lostAt !== undefined) return;
    lostAt = Date.now();
    handlers.lost(lostAt);
  };
  const ready = () => {
    const since = lostAt;
    if (since === undefined) return;
    // ioredis writes the re-subscription right after announcing 'ready'; a PING written after it is answered
    // once the subscription holds again, and from then on nothing is missed.
    setImmediate(() =>
      sub.ping().then(
        () => {
          if (lostAt !== since || sub.status !== 'ready') return;
          lostAt = undefined;
          handlers.restored(since);
        },
        () => undefined, // down again: the next 'ready' tries again
      ),
    );
  };
  if (sub.status !== 'ready') down();
  sub.on('close', down);
  sub.on('end', down);
  sub.on('ready', ready);
  return () => {
    sub.off('close', down);
    sub.off('end', down);
    sub.off('ready', ready);
  };
}

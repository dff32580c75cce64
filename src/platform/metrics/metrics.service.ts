import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets in seconds, from a cached read to a slow password hash or e-mail. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const WAIT_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The process's Prometheus metrics (GET /api/metrics). Each application instance has its own registry,
 * so several test applications in one process never collide. Features call the small methods below;
 * values that are cheaper to read than to track (open sessions, connected sockets) are read at scrape time
 * from the sources registered with {@link MetricsService.readOnScrape}.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly sources = new Map<string, () => number | Promise<number>>();
  private engines?: () => Array<[engine: string, up: boolean]>;

  private readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request arriving to the response finishing, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  private readonly logins = new Counter({
    name: 'auth_logins_total',
    help: 'Sign-in attempts (POST /auth/login) by outcome: success, or the error code in lower case.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly lockouts = new Counter({
    name: 'auth_lockouts_total',
    help: 'Times an account or a client address was locked after repeated failed sign-ins, by what was locked.',
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });
  private readonly notifications = new Counter({
    name: 'notification_deliveries_total',
    help: 'Notifications pushed to connected sockets, by target (user or organisation).',
    labelNames: ['target'] as const,
    registers: [this.registry],
  });
  private readonly mail = new Counter({
    name: 'mail_messages_total',
    help: 'Outgoing e-mail by result: sent (handed to SMTP or written to the outbox) or failed.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private readonly dbWait = new Histogram({
    name: 'db_queue_wait_seconds',
    help: 'Time a database operation waited for its turn (the SQLite queue, or a pool connection) before it ran.',
    buckets: WAIT_BUCKETS,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const sources = this.sources;
    const fromSource = (name: string) =>
      async function (this: Gauge) {
        const read = sources.get(name);
        if (!read) return;
        try {
          this.set(await read());
        } catch {
          // The database does not answer: the gauge keeps its last value, and the scrape still answers (engine_up
          // says why), rather than the whole exposition failing while an operator needs it most.
        }
      };
    new Gauge({
      name: 'sessions_active',
      help: 'Sign-in sessions not ended.',
      registers: [this.registry],
      collect: fromSource('sessions_active'),
    });
    const engines = () => this.engines?.() ?? [];
    new Gauge({
      name: 'engine_up',
      help: 'Whether each engine this instance uses (database, redis) answers: 1, or 0 during an outage.',
      labelNames: ['engine'] as const,
      registers: [this.registry],
      collect(this: Gauge<'engine'>) {
        for (const [engine, up] of engines()) this.set({ engine }, up ? 1 : 0);
      },
    });
    new Gauge({
      name: 'sockets_connected',
      help: 'Notification sockets connected to this instance.',
      registers: [this.registry],
      collect: fromSource('sockets_connected'),
    });
  }

  /** Registers the reader of `engine_up`: each engine this instance uses, and whether it answers now. */
  readEnginesOnScrape(read: () => Array<[engine: string, up: boolean]>): void {
    this.engines = read;
  }

  /** Called for every HTTP response; `route` is the route pattern (never the raw path, which may hold ids). */
  observeHttp(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /** One sign-in attempt: `success`, or the error code the caller got (e.g. `INVALID_CREDENTIALS`). */
  login(outcome: string): void {
    this.logins.inc({ outcome: outcome.toLowerCase() });
  }

  /** An account or address has just been locked. */
  lockout(scope: 'account' | 'address' | string): void {
    this.lockouts.inc({ scope });
  }

  notificationDelivered(target: 'user' | 'organisation'): void {
    this.notifications.inc({ target });
  }

  /** Counts the outcome of one outgoing e-mail and passes the promise through: `await metrics.trackMail(send())`. */
  trackMail<T>(sending: Promise<T>): Promise<T> {
    return sending.then(
      (v) => {
        this.mail.inc({ result: 'sent' });
        return v;
      },
      (e: unknown) => {
        this.mail.inc({ result: 'failed' });
        throw e;
      },
    );
  }

  /** The hook for the database layer: how long one operation queued before it ran, in seconds. */
  observeDbWait(seconds: number): void {
    this.dbWait.observe(seconds);
  }

  /** Registers the reader of a gauge that is computed at scrape time (`sessions_active`, `sockets_connected`). */
  readOnScrape(gauge: 'sessions_active' | 'sockets_connected', read: () => number | Promise<number>): void {
    this.sources.set(gauge, read);
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

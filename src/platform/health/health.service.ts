import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import Redis from 'ioredis';
import * as nodemailer from 'nodemailer';
import { DataSource } from 'typeorm';
import { EngineState } from '../web/engine-state';
import { Engine } from '../web/engine-unavailable';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';

export type CheckResult = 'ok' | 'skipped' | `failed: ${string}`;
export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; redis: CheckResult; mail: CheckResult };
}

const TIMEOUT_MS = 3000;
/** An SMTP verification opens a connection: its answer is reused for this long. */
const MAIL_CACHE_MS = 30_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function check(work: () => Promise<unknown>): Promise<CheckResult> {
  try {
    await within(TIMEOUT_MS, work());
    return 'ok';
  } catch (e) {
    return `failed: ${(e as Error).message}`;
  }
}

/**
 * Readiness: whether this instance can serve requests now. The database answers; Redis answers PING when
 * REDIS_URL is set; the SMTP server accepts a connection when SMTP_URL is set (without it mail goes to the
 * outbox folder, which needs nothing).
 */
@Injectable()
export class HealthService implements OnModuleDestroy {
  private mailTransport?: nodemailer.Transporter;
  private mailChecked?: { at: number; result: CheckResult };

  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly engines?: EngineState,
  ) {}

  async database(): Promise<CheckResult> {
    return this.report('database', await check(() => this.db.query('SELECT 1')));
  }

  async readiness(): Promise<Readiness> {
    const [database, redis, mail] = await Promise.all([
      this.database(),
      this.redisCheck().then((result) => this.report('redis', result)),
      this.mailCheck(),
    ]);
    return {
      ready: [database, redis, mail].every((c) => c === 'ok' || c === 'skipped'),
      checks: { database, redis, mail },
    };
  }

  /** Tells the EngineState what a check found (it logs an outage's start and end once; a probe's answer is no line). */
  private report(engine: Engine, result: CheckResult): CheckResult {
    if (result === 'ok') this.engines?.up(engine);
    else if (result !== 'skipped') this.engines?.down(engine, result.slice('failed: '.length));
    return result;
  }

  /**
   * A fresh connection per check (a probe every few seconds is cheap), so no reconnect timer outlives it; the short
   * disconnectTimeout because ioredis keeps its disconnect timer for that long when the connection was refused.
   */
  private redisCheck(): Promise<CheckResult> {
    const url = this.config.redisUrl;
    if (!url) return Promise.resolve('skipped');
    return check(async () => {
      const redis = new Redis(url, {
        lazyConnect: true,
        connectTimeout: TIMEOUT_MS,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        disconnectTimeout: 200,
      });
      redis.on('error', () => undefined); // reported through the check, not as an unhandled event
      try {
        await redis.connect();
        await redis.ping();
      } finally {
        redis.disconnect();
      }
    });
  }

  private async mailCheck(): Promise<CheckResult> {
    if (!this.config.smtpUrl) return 'skipped';
    if (this.mailChecked && Date.now() - this.mailChecked.at < MAIL_CACHE_MS) return this.mailChecked.result;
    this.mailTransport ??= nodemailer.createTransport(this.config.smtpUrl);
    const result = await check(() => this.mailTransport!.verify());
    this.mailChecked = { at: Date.now(), result };
    return result;
  }

  onModuleDestroy(): void {
    this.mailTransport?.close();
  }
}

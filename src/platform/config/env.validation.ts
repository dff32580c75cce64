import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { parseProxyTrust, ProxyTrust } from './proxy-trust';
import { DEFAULT_MFA_REMEMBER_DAYS } from '../../shared/identity/mfa-recovery';
import { SECURITY_POLICY_LIMITS } from '../../shared/administration/security-policy';

/**
 * The typed configuration of the whole process (docs/product-rules.md §1). Built once from the environment by
 * {@link loadConfig}, which names the offending variable when one is malformed.
 */
export interface AppConfig {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  publicUrl: string;
  jwtSecret: string;
  /** 32-byte key for secrets stored encrypted at rest (TOTP secrets). */
  encryptionKey: Buffer;
  smtpUrl?: string;
  mailFrom: string;
  supportEmail: string;
  supportEmailDomain: string;
  bootstrapSupportEmail: string;
  bootstrapSupportPassword?: string;
  appEnv: string;
  serviceApiKey?: string;
  /** Bearer token a Prometheus scraper presents for GET /api/metrics (loopback needs none). */
  metricsToken?: string;
  oidc?: { issuer: string; clientId: string; clientSecret?: string };
  redisUrl?: string;
  logLevel: 'silent' | 'error' | 'info' | 'debug';
  /**
   * TRUST_PROXY: which proxies in front may name the client in X-Forwarded-For (a number of them, or their
   * addresses); the client address (platform/web/http/client-address.ts) follows it for HTTP and sockets alike.
   */
  trustProxy: ProxyTrust;
  /** Multiplies every rate limit (load tests and benchmarks only; default 1). */
  rateLimitScale: number;
  /** Days audit events are kept where an organisation's policy sets none (AUDIT_RETENTION_DAYS, default 365). */
  auditRetentionDays: number;
  /** AUDIT_DISABLED=true records no audit events: for bench/audit.js only, never in production. */
  auditDisabled: boolean;
  /** The time zone whose days the insights count in (INSIGHTS_TIME_ZONE, an IANA name; default Australia/Sydney). */
  insightsTimeZone: string;
  /** Days "Don't ask again on this device" lasts (MFA_REMEMBER_DAYS, default 30); 0 turns trusted devices off. */
  mfaRememberDays: number;
  /** Hours between checks that a verified domain still publishes its TXT record (DOMAIN_RECHECK_HOURS, default 24); 0 off. */
  domainRecheckHours: number;
  /** DNS_SERVERS: resolvers for domain verification, as `Resolver#setServers` takes them; unset: the system's. */
  dnsServers?: string[];
  /** SSO_ALLOW_PRIVATE_NETWORKS=true: customer-supplied SSO URLs may be plain http and reach private addresses. */
  ssoAllowPrivateNetworks: boolean;
  /**
   * ALLOW_PRIVATE_NETWORKS=true (or SSO_ALLOW_PRIVATE_NETWORKS=true): every customer-supplied URL (SSO, webhooks,
   * log streams) may be plain http and reach private addresses.
   */
  allowPrivateNetworks: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: the waits, in ms, before each retry of a webhook or log-stream delivery. */
  webhookRetryScheduleMs: number[];
  /** SOCKET_TRANSPORT_TUNING=off: socket.io's own path for broadcasts and connection state (src/portal/notifications/transport). */
  socketTransportTuning: boolean;
  /** Minutes a re-authentication lets sensitive calls through (STEP_UP_MINUTES, default 5). */
  stepUpMinutes: number;
  /** Base URL of a k-anonymity range API of breached passwords (PWNED_PASSWORDS_URL); unset: the offline list only. */
  pwnedPasswordsUrl?: string;
  /** How long a range API answer is awaited before the offline list decides alone (PWNED_PASSWORDS_TIMEOUT_MS). */
  pwnedPasswordsTimeoutMs: number;
  /** Seconds a SIGTERM waits for the requests in flight before closing their connections (SHUTDOWN_GRACE_SECONDS, default 10). */
  shutdownGraceSeconds: number;
  /** Scheduled backups go here (BACKUP_DIR; SQLite only), every backupIntervalHours, the newest backupKeep kept. */
  backupDir?: string;
  backupIntervalHours: number;
  backupKeep: number;
  /** The keys given in the environment rather than generated into DATA_DIR (a backup says they are not in it). */
  keysFromEnvironment: string[];
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['silent', 'error', 'info', 'debug'] as const;

function fail(variable: string, reason: string): never {
  throw new ConfigError(`Invalid configuration: ${variable} ${reason}`);
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const v = optional(env, name);
  if (v === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    fail(name, `must be a URL (got "${v}")`);
  }
  if (!protocols.includes(parsed.protocol))
    fail(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${v}")`);
  return v;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
function email(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const v = optional(env, name) ?? fallback;
  if (!EMAIL.test(v)) fail(name, `must be an e-mail address (got "${v}")`);
  return v.toLowerCase();
}

/**
 * What to do about a folder this process may not write: in the image it runs as `node` (uid 1000), and a
 * bind-mounted host folder keeps its host owner.
 */
function notWritable(): string {
  const uid = process.getuid?.();
  return (
    `is not writable by this process${uid === undefined ? '' : ` (uid ${uid})`}. ` +
    `Give the folder to that user (for a bind-mounted host folder: chown -R ${uid ?? 1000}:${uid ?? 1000} <host folder>, ` +
    'or mount it with :U under podman), or use a named volume'
  );
}

/** A secret kept in DATA_DIR, generated on first use, so nothing secret is ever hard-coded. */
function persistedSecret(dataDir: string, file: string, bytes: number): Buffer {
  const path = join(dataDir, file);
  if (existsSync(path)) {
    const value = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (value.length === bytes) return value;
  }
  const value = randomBytes(bytes);
  writeFileSync(path, value.toString('base64'), { mode: 0o600 });
  return value;
}

/** `host:port` resolvers, comma-separated: IPv4 `a.b.c.d[:port]`, IPv6 `[addr]:port` or a bare IPv6 address. */
function dnsServers(env: NodeJS.ProcessEnv): string[] | undefined {
  const v = optional(env, 'DNS_SERVERS');
  if (v === undefined) return undefined;
  return v.split(',').map((entry) => {
    const server = entry.trim();
    const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(server);
    const host = m ? m[1] : server;
    const port = m?.[2] === undefined ? 53 : Number(m[2]);
    if (isIP(host) === 0 || port < 1 || port > 65535)
      fail(
        'DNS_SERVERS',
        `must be comma-separated IP addresses with optional ports, e.g. 10.0.0.2:53 (got "${server}")`,
      );
    return server;
  });
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Comma-separated durations such as `5s,5m,30m,2h`: each a whole number and a unit (ms, s, m, h, d). */
function durations(env: NodeJS.ProcessEnv, name: string, fallback: string): number[] {
  const text = optional(env, name) ?? fallback;
  return text.split(',').map((part) => {
    const m = /^(\d{1,6})(ms|s|m|h|d)$/.exec(part.trim());
    const ms = m ? Number(m[1]) * DURATION_UNITS_MS[m[2]] : NaN;
    if (!m || ms <= 0 || ms > 7 * 86_400_000 || text.split(',').length > 20)
      fail(name, `must be at most 20 comma-separated durations of up to 7 days each, such as 5s,5m,2h (got "${text}")`);
    return ms;
  });
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const v = optional(env, name);
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  fail(name, `must be true or false (got "${v}")`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const portText = optional(env, 'PORT') ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535) fail('PORT', `must be a port number (got "${portText}")`);

  const dataDir = resolve(optional(env, 'DATA_DIR') ?? './data');
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (e) {
    fail('DATA_DIR', `cannot be created (${(e as Error).message})`);
  }
  try {
    accessSync(dataDir, constants.W_OK);
  } catch {
    fail('DATA_DIR', `(${dataDir}) ${notWritable()}`);
  }

  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');

  // Several instances share one PostgreSQL: a key generated into one instance's DATA_DIR would differ from
  // its neighbours' (tokens refused, TOTP secrets unreadable), so they must be given, not generated.
  if (databaseUrl !== undefined) {
    for (const name of ['JWT_SECRET', 'ENCRYPTION_KEY']) {
      if (optional(env, name) === undefined)
        fail(
          name,
          'must be set when DATABASE_URL is set (every instance needs the same key; generate one with: openssl rand -base64 48)',
        );
    }
  }

  const jwtSecretText = optional(env, 'JWT_SECRET');
  if (jwtSecretText !== undefined && jwtSecretText.length < 32)
    fail('JWT_SECRET', 'must be at least 32 characters long');
  const jwtSecret = jwtSecretText ?? persistedSecret(dataDir, 'jwt-secret', 48).toString('base64');

  const encryptionKeyText = optional(env, 'ENCRYPTION_KEY');
  let encryptionKey: Buffer;
  if (encryptionKeyText !== undefined) {
    encryptionKey = Buffer.from(encryptionKeyText, 'base64');
    if (encryptionKey.length !== 32) fail('ENCRYPTION_KEY', 'must be 32 bytes encoded in base64');
  } else {
    encryptionKey = persistedSecret(dataDir, 'encryption-key', 32);
  }

  const supportEmailDomain = (optional(env, 'SUPPORT_EMAIL_DOMAIN') ?? 'support.localhost').toLowerCase();
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(supportEmailDomain))
    fail('SUPPORT_EMAIL_DOMAIN', `must be a domain name (got "${supportEmailDomain}")`);

  const appEnv = optional(env, 'APP_ENV') ?? 'production';
  if (!/^[a-z][a-z0-9-]*$/.test(appEnv))
    fail('APP_ENV', `must be a lower-case environment name such as develop or production (got "${appEnv}")`);

  const serviceApiKey = optional(env, 'SERVICE_API_KEY');
  if (serviceApiKey !== undefined && serviceApiKey.length < 16)
    fail('SERVICE_API_KEY', 'must be at least 16 characters long');

  const metricsToken = optional(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16)
    fail('METRICS_TOKEN', 'must be at least 16 characters long');

  const oidcIssuer = url(env, 'OIDC_ISSUER', ['http:', 'https:']);
  const oidcClientId = optional(env, 'OIDC_CLIENT_ID');
  if ((oidcIssuer === undefined) !== (oidcClientId === undefined)) {
    fail(
      oidcIssuer === undefined ? 'OIDC_ISSUER' : 'OIDC_CLIENT_ID',
      'must be set together with the other (OIDC_ISSUER and OIDC_CLIENT_ID)',
    );
  }

  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'info') as AppConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);

  const bootstrapSupportPassword = optional(env, 'BOOTSTRAP_SUPPORT_PASSWORD');
  if (
    bootstrapSupportPassword !== undefined &&
    (bootstrapSupportPassword.length < 8 || bootstrapSupportPassword.length > 50)
  ) {
    fail('BOOTSTRAP_SUPPORT_PASSWORD', 'must be 8 to 50 characters long');
  }

  const rateLimitScaleText = optional(env, 'RATE_LIMIT_SCALE') ?? '1';
  const rateLimitScale = Number(rateLimitScaleText);
  if (!/^\d+$/.test(rateLimitScaleText) || rateLimitScale < 1)
    fail('RATE_LIMIT_SCALE', `must be a whole number of 1 or more (got "${rateLimitScaleText}")`);
  const retentionText = optional(env, 'AUDIT_RETENTION_DAYS') ?? '365';
  const retention = SECURITY_POLICY_LIMITS;
  if (
    !/^\d+$/.test(retentionText) ||
    Number(retentionText) < retention.AUDIT_RETENTION_DAYS_MIN ||
    Number(retentionText) > retention.AUDIT_RETENTION_DAYS_MAX
  )
    fail(
      'AUDIT_RETENTION_DAYS',
      `must be a whole number of days from ${retention.AUDIT_RETENTION_DAYS_MIN} to ${retention.AUDIT_RETENTION_DAYS_MAX} (got "${retentionText}")`,
    );

  const insightsTimeZone = optional(env, 'INSIGHTS_TIME_ZONE') ?? 'Australia/Sydney';
  if (!isTimeZone(insightsTimeZone))
    fail('INSIGHTS_TIME_ZONE', `must be an IANA time zone such as Australia/Sydney (got "${insightsTimeZone}")`);

  const recheckText = optional(env, 'DOMAIN_RECHECK_HOURS') ?? '24';
  if (!/^\d+$/.test(recheckText) || Number(recheckText) > 8760)
    fail('DOMAIN_RECHECK_HOURS', `must be a whole number of hours from 0 (off) to 8760 (got "${recheckText}")`);

  const rememberText = optional(env, 'MFA_REMEMBER_DAYS') ?? String(DEFAULT_MFA_REMEMBER_DAYS);
  if (!/^\d+$/.test(rememberText) || Number(rememberText) > 365)
    fail('MFA_REMEMBER_DAYS', `must be a whole number of days from 0 (off) to 365 (got "${rememberText}")`);

  const tuningText = optional(env, 'SOCKET_TRANSPORT_TUNING') ?? 'on';
  if (tuningText !== 'on' && tuningText !== 'off')
    fail('SOCKET_TRANSPORT_TUNING', `must be on or off (got "${tuningText}")`);
  const stepUpText = optional(env, 'STEP_UP_MINUTES') ?? '5';
  if (!/^\d+$/.test(stepUpText) || Number(stepUpText) < 1 || Number(stepUpText) > 60)
    fail('STEP_UP_MINUTES', `must be a whole number of minutes from 1 to 60 (got "${stepUpText}")`);

  const pwnedTimeoutText = optional(env, 'PWNED_PASSWORDS_TIMEOUT_MS') ?? '2000';
  if (!/^\d+$/.test(pwnedTimeoutText) || Number(pwnedTimeoutText) < 1 || Number(pwnedTimeoutText) > 30000)
    fail(
      'PWNED_PASSWORDS_TIMEOUT_MS',
      `must be a whole number of milliseconds from 1 to 30000 (got "${pwnedTimeoutText}")`,
    );
  const graceText = optional(env, 'SHUTDOWN_GRACE_SECONDS') ?? '10';
  if (!/^\d+$/.test(graceText) || Number(graceText) > 600)
    fail('SHUTDOWN_GRACE_SECONDS', `must be a whole number of seconds from 0 to 600 (got "${graceText}")`);

  const backupDirText = optional(env, 'BACKUP_DIR');
  let backupDir: string | undefined;
  if (backupDirText !== undefined) {
    if (databaseUrl !== undefined)
      fail('BACKUP_DIR', 'is for the embedded SQLite database: back up PostgreSQL with pg_dump (docs/operating.md)');
    backupDir = resolve(backupDirText);
    try {
      mkdirSync(backupDir, { recursive: true });
      accessSync(backupDir, constants.W_OK);
    } catch {
      fail('BACKUP_DIR', `(${backupDir}) ${notWritable()}`);
    }
  }
  const intervalText = optional(env, 'BACKUP_INTERVAL_HOURS') ?? '24';
  const backupIntervalHours = Number(intervalText);
  if (!/^\d+(\.\d+)?$/.test(intervalText) || backupIntervalHours <= 0 || backupIntervalHours > 8760)
    fail('BACKUP_INTERVAL_HOURS', `must be a number of hours above 0, at most 8760 (got "${intervalText}")`);
  const keepText = optional(env, 'BACKUP_KEEP') ?? '7';
  let trustProxy: ProxyTrust;
  try {
    trustProxy = parseProxyTrust(optional(env, 'TRUST_PROXY'));
  } catch (e) {
    fail('TRUST_PROXY', (e as Error).message);
  }
  if (!/^\d+$/.test(keepText) || Number(keepText) < 1 || Number(keepText) > 10000)
    fail('BACKUP_KEEP', `must be a whole number from 1 to 10000 (got "${keepText}")`);

  return {
    port,
    dataDir,
    databaseUrl,
    publicUrl,
    jwtSecret,
    encryptionKey,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: email(env, 'MAIL_FROM', `no-reply@${supportEmailDomain}`),
    supportEmail: email(env, 'SUPPORT_EMAIL', `support@${supportEmailDomain}`),
    supportEmailDomain,
    bootstrapSupportEmail: email(env, 'BOOTSTRAP_SUPPORT_EMAIL', `admin@${supportEmailDomain}`),
    bootstrapSupportPassword,
    appEnv,
    serviceApiKey,
    metricsToken,
    oidc:
      oidcIssuer && oidcClientId
        ? { issuer: oidcIssuer, clientId: oidcClientId, clientSecret: optional(env, 'OIDC_CLIENT_SECRET') }
        : undefined,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    logLevel,
    trustProxy,
    rateLimitScale,
    auditRetentionDays: Number(retentionText),
    auditDisabled: optional(env, 'AUDIT_DISABLED') === 'true',
    mfaRememberDays: Number(rememberText),
    insightsTimeZone,
    dnsServers: dnsServers(env),
    domainRecheckHours: Number(recheckText),
    ssoAllowPrivateNetworks: flag(env, 'SSO_ALLOW_PRIVATE_NETWORKS') || flag(env, 'ALLOW_PRIVATE_NETWORKS'),
    allowPrivateNetworks: flag(env, 'ALLOW_PRIVATE_NETWORKS') || flag(env, 'SSO_ALLOW_PRIVATE_NETWORKS'),
    webhookRetryScheduleMs: durations(env, 'WEBHOOK_RETRY_SCHEDULE', '5s,5m,30m,2h,5h,10h,10h'),
    socketTransportTuning: tuningText === 'on',
    stepUpMinutes: Number(stepUpText),
    pwnedPasswordsUrl: url(env, 'PWNED_PASSWORDS_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
    pwnedPasswordsTimeoutMs: Number(pwnedTimeoutText),
    shutdownGraceSeconds: Number(graceText),
    backupDir,
    backupIntervalHours,
    backupKeep: Number(keepText),
    keysFromEnvironment: ['JWT_SECRET', 'ENCRYPTION_KEY'].filter((name) => optional(env, name) !== undefined),
  };
}

/** Whether the runtime's time-zone data knows this IANA name. */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: name });
    return name.length <= 64;
  } catch {
    return false;
  }
}

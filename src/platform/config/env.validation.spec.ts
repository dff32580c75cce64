import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './env.validation';
import { testSecret } from '../../../test/utils/secrets';

/** A signing secret made for this run (32 characters or more, as required). */
const JWT = testSecret('jwt-secret-of-this-run');

describe('loadConfig (docs/product-rules.md §1)', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'cfg-'));

  it('has working defaults on one machine', () => {
    const dir = dataDir();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      appEnv: 'production',
      supportEmailDomain: 'support.localhost',
      oidc: undefined,
    });
    expect(c.bootstrapSupportEmail).toBe('admin@support.localhost');
  });

  it('generates a JWT secret once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir() }).jwtSecret).not.toBe(first);
  });

  it('refuses PostgreSQL without shared keys: every instance must sign and encrypt with the same ones', () => {
    const url = 'postgres://portal@db:5432/portal';
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: url, ENCRYPTION_KEY: key })).toThrow(
      /JWT_SECRET must be set when DATABASE_URL/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: url, JWT_SECRET: JWT })).toThrow(
      /ENCRYPTION_KEY must be set when DATABASE_URL/,
    );
    const c = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: url, JWT_SECRET: JWT, ENCRYPTION_KEY: key });
    expect(c.jwtSecret).toBe(JWT);
  });

  it.each([
    ['PORT', 'abc', /PORT/],
    ['PUBLIC_URL', 'ftp://x', /PUBLIC_URL/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL/],
    ['JWT_SECRET', 'short', /JWT_SECRET/],
    ['SMTP_URL', 'http://mail', /SMTP_URL/],
    ['MAIL_FROM', 'not-an-address', /MAIL_FROM/],
    ['APP_ENV', 'Dev Env', /APP_ENV/],
    ['LOG_LEVEL', 'verbose', /LOG_LEVEL/],
    ['SERVICE_API_KEY', 'tiny', /SERVICE_API_KEY/],
    ['METRICS_TOKEN', 'short-token', /METRICS_TOKEN/],
    ['OIDC_ISSUER', 'https://idp.example.com', /OIDC_CLIENT_ID/],
    ['BOOTSTRAP_SUPPORT_PASSWORD', 'short', /BOOTSTRAP_SUPPORT_PASSWORD/],
    ['AUDIT_RETENTION_DAYS', '-1', /AUDIT_RETENTION_DAYS/],
    ['AUDIT_RETENTION_DAYS', 'a year', /AUDIT_RETENTION_DAYS/],
    ['AUDIT_RETENTION_DAYS', '0', /AUDIT_RETENTION_DAYS/],
    ['AUDIT_RETENTION_DAYS', '29', /AUDIT_RETENTION_DAYS/],
    ['AUDIT_RETENTION_DAYS', '2556', /AUDIT_RETENTION_DAYS/],
    ['MFA_REMEMBER_DAYS', '-1', /MFA_REMEMBER_DAYS/],
    ['MFA_REMEMBER_DAYS', '366', /MFA_REMEMBER_DAYS/],
    ['DNS_SERVERS', 'dns.example.com:53', /DNS_SERVERS/],
    ['DNS_SERVERS', '10.0.0.2:99999', /DNS_SERVERS/],
    ['DNS_SERVERS', '10.0.0.2,', /DNS_SERVERS/],
    ['SSO_ALLOW_PRIVATE_NETWORKS', 'yes', /SSO_ALLOW_PRIVATE_NETWORKS/],
    ['ALLOW_PRIVATE_NETWORKS', '1', /ALLOW_PRIVATE_NETWORKS/],
    ['WEBHOOK_RETRY_SCHEDULE', '5', /WEBHOOK_RETRY_SCHEDULE/],
    ['WEBHOOK_RETRY_SCHEDULE', '5s,,5m', /WEBHOOK_RETRY_SCHEDULE/],
    ['WEBHOOK_RETRY_SCHEDULE', '0s', /WEBHOOK_RETRY_SCHEDULE/],
    ['WEBHOOK_RETRY_SCHEDULE', '8d', /WEBHOOK_RETRY_SCHEDULE/],
    ['WEBHOOK_RETRY_SCHEDULE', '-5s', /WEBHOOK_RETRY_SCHEDULE/],
    ['WEBHOOK_RETRY_SCHEDULE', Array(21).fill('1s').join(','), /WEBHOOK_RETRY_SCHEDULE/],
    ['STEP_UP_MINUTES', '0', /STEP_UP_MINUTES/],
    ['STEP_UP_MINUTES', 'five', /STEP_UP_MINUTES/],
    ['STEP_UP_MINUTES', '61', /STEP_UP_MINUTES/],
    ['PWNED_PASSWORDS_URL', 'ftp://range.example', /PWNED_PASSWORDS_URL/],
    ['PWNED_PASSWORDS_TIMEOUT_MS', '0', /PWNED_PASSWORDS_TIMEOUT_MS/],
    ['SHUTDOWN_GRACE_SECONDS', '-1', /SHUTDOWN_GRACE_SECONDS/],
    ['SHUTDOWN_GRACE_SECONDS', '601', /SHUTDOWN_GRACE_SECONDS/],
    ['SHUTDOWN_GRACE_SECONDS', '10s', /SHUTDOWN_GRACE_SECONDS/],
    ['BACKUP_INTERVAL_HOURS', '0', /BACKUP_INTERVAL_HOURS/],
    ['BACKUP_INTERVAL_HOURS', 'daily', /BACKUP_INTERVAL_HOURS/],
    ['BACKUP_KEEP', '0', /BACKUP_KEEP/],
    ['INSIGHTS_TIME_ZONE', 'Sydney', /INSIGHTS_TIME_ZONE/],
    ['INSIGHTS_TIME_ZONE', 'Mars/Olympus_Mons', /INSIGHTS_TIME_ZONE/],
    ['TRUST_PROXY', 'yes', /TRUST_PROXY/],
    ['TRUST_PROXY', '11', /TRUST_PROXY/],
    ['TRUST_PROXY', '10.0.0.1,nginx.internal', /TRUST_PROXY/],
    ['TRUST_PROXY', '10.0.0.0/33', /TRUST_PROXY/],
  ])('names the bad variable: %s=%s', (name, value, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), [name]: value })).toThrow(message);
  });

  it('trusts no proxy by default; true is one proxy, a number that many, or a list of their addresses', () => {
    const trust = (value?: string) => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value }).trustProxy;
    expect(trust()).toEqual({ hops: 0 });
    expect(trust('false')).toEqual({ hops: 0 });
    expect(trust('true')).toEqual({ hops: 1 });
    expect(trust('2')).toEqual({ hops: 2 });
    expect(trust('10.0.0.7, 192.168.0.0/16,2001:DB8::/32')).toEqual({
      proxies: ['10.0.0.7/32', '192.168.0.0/16', '2001:db8::/32'],
    });
    expect(trust('loopback')).toEqual({ proxies: ['127.0.0.0/8', '::1/128'] });
  });

  it("counts the insights in Australia/Sydney's days unless INSIGHTS_TIME_ZONE names another zone", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).insightsTimeZone).toBe('Australia/Sydney');
    expect(loadConfig({ DATA_DIR: dataDir(), INSIGHTS_TIME_ZONE: 'Europe/Berlin' }).insightsTimeZone).toBe(
      'Europe/Berlin',
    );
  });

  it('reads SSO only with issuer and client id together', () => {
    const clientSecret = testSecret('client');
    const c = loadConfig({
      DATA_DIR: dataDir(),
      OIDC_ISSUER: 'https://idp.example.com',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: clientSecret,
    });
    expect(c.oidc).toEqual({ issuer: 'https://idp.example.com', clientId: 'portal', clientSecret });
  });

  it("keeps audit events 365 days by default, or the deployment's choice from 30 days to 7 years", () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ auditRetentionDays: 365, auditDisabled: false });
    expect(loadConfig({ DATA_DIR: dataDir(), AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    expect(loadConfig({ DATA_DIR: dataDir(), AUDIT_RETENTION_DAYS: '2555' }).auditRetentionDays).toBe(2555);
  });

  it('remembers trusted devices 30 days by default, 0 turning them off', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).mfaRememberDays).toBe(30);
    expect(loadConfig({ DATA_DIR: dataDir(), MFA_REMEMBER_DAYS: '0' }).mfaRememberDays).toBe(0);
  });

  it('uses the system resolvers unless DNS_SERVERS names some, and refuses private SSO networks by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({
      dnsServers: undefined,
      ssoAllowPrivateNetworks: false,
    });
    const c = loadConfig({
      DATA_DIR: dataDir(),
      DNS_SERVERS: '127.0.0.1:5353, [::1]:53,10.0.0.2',
      SSO_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    expect(c).toMatchObject({ dnsServers: ['127.0.0.1:5353', '[::1]:53', '10.0.0.2'], ssoAllowPrivateNetworks: true });
  });

  it('lets a step-up count 5 minutes by default, and asks no range API unless one is named', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ stepUpMinutes: 5, pwnedPasswordsTimeoutMs: 2000 });
    expect(loadConfig({ DATA_DIR: dataDir() }).pwnedPasswordsUrl).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dataDir(), STEP_UP_MINUTES: '15', PWNED_PASSWORDS_URL: 'https://range.example/' }),
    ).toMatchObject({ stepUpMinutes: 15, pwnedPasswordsUrl: 'https://range.example' });
  });

  it('retries deliveries at 5s,5m,30m,2h,5h,10h,10h by default; private networks only when allowed', () => {
    const h = 3_600_000;
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({
      webhookRetryScheduleMs: [5000, 300_000, 1_800_000, 2 * h, 5 * h, 10 * h, 10 * h],
      allowPrivateNetworks: false,
      ssoAllowPrivateNetworks: false,
    });
    expect(
      loadConfig({ DATA_DIR: dataDir(), WEBHOOK_RETRY_SCHEDULE: '250ms, 1s,2m,1d' }).webhookRetryScheduleMs,
    ).toEqual([250, 1000, 120_000, 86_400_000]);
    // Either variable opens every customer-supplied URL: SSO, webhooks and log streams.
    for (const name of ['ALLOW_PRIVATE_NETWORKS', 'SSO_ALLOW_PRIVATE_NETWORKS'])
      expect(loadConfig({ DATA_DIR: dataDir(), [name]: 'true' })).toMatchObject({
        allowPrivateNetworks: true,
        ssoAllowPrivateNetworks: true,
      });
  });

  it('gives requests in flight 10 s at shutdown by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).shutdownGraceSeconds).toBe(10);
    expect(loadConfig({ DATA_DIR: dataDir(), SHUTDOWN_GRACE_SECONDS: '0' }).shutdownGraceSeconds).toBe(0);
  });

  it('schedules backups only for SQLite, every 24 hours keeping 7 by default', () => {
    const dir = dataDir();
    const c = loadConfig({ DATA_DIR: dir, BACKUP_DIR: join(dir, 'backups') });
    expect(c).toMatchObject({ backupDir: join(dir, 'backups'), backupIntervalHours: 24, backupKeep: 7 });
    expect(loadConfig({ DATA_DIR: dir, BACKUP_INTERVAL_HOURS: '0.5' }).backupIntervalHours).toBe(0.5);
    const pg = {
      DATABASE_URL: 'postgres://portal@db/x',
      JWT_SECRET: JWT,
      ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
    };
    expect(() => loadConfig({ DATA_DIR: dir, ...pg, BACKUP_DIR: join(dir, 'b') })).toThrow(/BACKUP_DIR.*pg_dump/);
    expect(loadConfig({ DATA_DIR: dir, ...pg }).keysFromEnvironment).toEqual(['JWT_SECRET', 'ENCRYPTION_KEY']);
  });
});

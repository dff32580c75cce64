#!/usr/bin/env node
/**
 * The OpenID provider's token endpoint: authorization codes exchanged and refresh tokens rotated per second, beside
 * the portal's own POST /refresh and a bare node:http server answering a token response's bytes, in the same run
 * and through the same client. Each measurement is taken in alternating slices (bare, /refresh, the provider's
 * refresh, code exchanges, again), so that all of them see the same moments of a shared machine: read the ratios.
 *
 * Codes live 60 s and serve once, so each slice of code exchanges spends a pool made just before it: every code a
 * real authorization of a signed-in browser (GET /oidc/auth and its redirects), made outside the measured time.
 */
const { createHash, randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const {
  startServer,
  sqlite,
  serverHash,
  seedOrganisation,
  login,
  percentile,
  bareHttp,
  fmt,
  report,
} = require('./lib');

const PASSWORD = 'Bench-Pass-12345';
const ACCOUNTS = 16;
const CONNECTIONS = 16;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SLICE_SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CODES_PER_SLICE = Number(process.env.BENCH_CODES ?? 400);
const REDIRECT_URI = 'http://127.0.0.1:9/cb';
const VERIFIER = randomBytes(32).toString('base64url');
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

/** A browser's cookies, by name (the provider's paths are all under /oidc/, the jar ignores paths). */
class Jar {
  constructor(cookie) {
    this.cookies = new Map();
    for (const pair of cookie.split('; ').filter(Boolean)) this.keep([pair]);
  }
  keep(lines) {
    for (const line of lines) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(pair.slice(0, i));
      else this.cookies.set(pair.slice(0, i), value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Closed loop over `connections` workers for `seconds`, or until `next()` has nothing left: each worker sends its
 * next request as soon as the previous answer is read. `after(body, i)` checks the answer (false: an error).
 */
async function run(base, { seconds, next, after, cpuMs }) {
  const times = [];
  let errors = 0;
  let firstError;
  const cpuStart = cpuMs?.();
  const started = performance.now();
  const stopAt = started + seconds * 1000;
  const worker = async (i) => {
    for (;;) {
      if (performance.now() >= stopAt) return;
      const r = next(i);
      if (!r) return;
      const t = performance.now();
      const res = await fetch(`${base}${r.path}`, {
        method: 'POST',
        headers: r.headers,
        body: r.body,
        redirect: 'manual',
      });
      const body = await res.text();
      times.push(performance.now() - t);
      if (res.status >= 400 || (after && after(body, i, res) === false)) {
        errors++;
        firstError ??= `${res.status} ${body.slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => worker(i)));
  const elapsed = (performance.now() - started) / 1000;
  return { times, elapsed, errors, firstError, cpu: cpuMs ? cpuMs() - cpuStart : undefined };
}

/** The slices of one kind summed: rate, p99, errors, server CPU per call. */
function total(slices) {
  const times = slices.flatMap((s) => s.times).sort((a, b) => a - b);
  const seconds = slices.reduce((s, r) => s + r.elapsed, 0);
  const cpu = slices.reduce((s, r) => s + (r.cpu ?? 0), 0);
  return {
    rps: times.length / seconds,
    p99: percentile(times, 99),
    n: times.length,
    errors: slices.reduce((s, r) => s + r.errors, 0),
    firstError: slices.find((r) => r.firstError)?.firstError,
    cpuPerCall: cpu / Math.max(1, times.length),
  };
}

async function main() {
  const server = await startServer({ ALLOW_PRIVATE_NETWORKS: 'true' });
  try {
    const db = sqlite(`${server.dataDir}/app.sqlite`);
    const hash = await serverHash(PASSWORD);
    const orgId = await seedOrganisation(db, 'OIDCBENCH', ACCOUNTS * 2);
    await db.run('BEGIN');
    const emails = [];
    for (let i = 0; i < ACCOUNTS * 2; i++) {
      const email = `oidc${i}@bench.test`;
      await db.run(
        'INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isMFAEnforced) VALUES (?, ?, ?, ?, ?, 6, 0)',
        [orgId, email, hash, 'Oidc', `Bench ${i}`],
      );
      emails.push(email);
    }
    await db.run('COMMIT');
    await db.close();

    // The deployment's application (no consent screen), registered by E-Support.
    const support = await login(server.base, 'support@bench.test', 'Bench-Support-1');
    const registered = await fetch(`${server.base}/api/oidc-clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${support.accessToken}` },
      body: JSON.stringify({ name: 'Bench application', type: 'confidential', redirectUris: [REDIRECT_URI] }),
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
    const app = await registered.json();
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString('base64')}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded', authorization: basic };

    // Browsers signed in at the portal: the first half make codes, the second half are /refresh's clients.
    const browsers = [];
    for (let i = 0; i < ACCOUNTS; i++) browsers.push(new Jar((await login(server.base, emails[i], PASSWORD)).cookie));
    const portalClients = [];
    for (let i = ACCOUNTS; i < ACCOUNTS * 2; i++) portalClients.push(await login(server.base, emails[i], PASSWORD));

    /** One authorization of a signed-in browser, redirects followed: its code. */
    async function authorize(jar) {
      const query = new URLSearchParams({
        client_id: app.clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid offline_access',
        prompt: 'consent',
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
        state: randomBytes(8).toString('hex'),
      });
      let url = `${server.base}/oidc/auth?${query}`;
      for (let hops = 0; hops < 10; hops++) {
        const res = await fetch(url, { headers: { cookie: jar.header() }, redirect: 'manual' });
        jar.keep(res.headers.getSetCookie());
        await res.arrayBuffer();
        const location = res.headers.get('location');
        if (!location) throw new Error(`authorize: ${res.status} without a redirect`);
        if (location.startsWith(REDIRECT_URI)) {
          const code = new URL(location).searchParams.get('code');
          if (!code) throw new Error(`authorize: ${location}`);
          return code;
        }
        url = new URL(location, server.base).href;
      }
      throw new Error('authorize: too many redirects');
    }
    /** `count` codes, each browser making its share one after another (its interaction cookies are its own). */
    async function codes(count) {
      const pool = [];
      await Promise.all(
        browsers.map(async (jar, i) => {
          for (let k = i; k < count; k += browsers.length) pool.push(await authorize(jar));
        }),
      );
      return pool;
    }
    const exchange = (code) => ({
      path: '/oidc/token',
      headers: form,
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: VERIFIER,
      }).toString(),
    });

    // The provider's refresh clients: one grant each, chaining its own rotated refresh token.
    const refreshTokens = [];
    for (const code of await codes(CONNECTIONS)) {
      const res = await fetch(`${server.base}/oidc/token`, { method: 'POST', ...exchange(code) });
      const body = await res.json();
      if (!body.refresh_token) throw new Error(`exchange: ${res.status} ${JSON.stringify(body)}`);
      refreshTokens.push(body.refresh_token);
    }
    const oidcRefresh = {
      next: (i) => ({
        path: '/oidc/token',
        headers: form,
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshTokens[i] }).toString(),
      }),
      after: (body, i) => {
        const next = JSON.parse(body).refresh_token;
        if (!next) return false;
        refreshTokens[i] = next;
      },
    };
    const portalRefresh = {
      next: (i) => ({ path: '/refresh', headers: { cookie: portalClients[i].cookie } }),
      after: (_body, i, res) => {
        const next = res.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ');
        if (next) portalClients[i].cookie = next;
      },
    };
    // The anchor answers a token response's bytes.
    const sample = await fetch(`${server.base}/oidc/token`, { method: 'POST', ...oidcRefresh.next(0) });
    const sampleBody = Buffer.from(await sample.arrayBuffer());
    oidcRefresh.after(sampleBody.toString(), 0);
    const bare = await bareHttp(sampleBody, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    const bareLoad = { next: () => ({ path: '/token', headers: form, body: 'grant_type=refresh_token' }) };

    const slices = { bare: [], portal: [], refresh: [], codes: [] };
    for (let round = 0; round < ROUNDS; round++) {
      slices.bare.push(await run(bare.base, { ...bareLoad, seconds: SLICE_SECONDS }));
      slices.portal.push(await run(server.base, { ...portalRefresh, seconds: SLICE_SECONDS, cpuMs: server.cpuMs }));
      slices.refresh.push(await run(server.base, { ...oidcRefresh, seconds: SLICE_SECONDS, cpuMs: server.cpuMs }));
      const pool = await codes(CODES_PER_SLICE);
      slices.codes.push(
        await run(server.base, {
          seconds: SLICE_SECONDS,
          next: () => (pool.length ? exchange(pool.pop()) : undefined),
          after: (body) => !!JSON.parse(body).id_token,
          cpuMs: server.cpuMs,
        }),
      );
    }
    await bare.close();
    const b = total(slices.bare);
    const portal = total(slices.portal);
    const refresh = total(slices.refresh);
    const exchanged = total(slices.codes);
    const errors = (r) => (r.errors ? `; ${r.errors} errors: ${r.firstError}` : '');
    const beside = (r) =>
      `${fmt(r.rps)}/s, p99 ${fmt(r.p99)} ms, ${fmt(r.cpuPerCall, 2)} ms server CPU each: ${fmt(r.rps / portal.rps, 3)} of the portal's POST /refresh (${fmt(portal.rps)}/s, ${fmt(portal.cpuPerCall, 2)} ms CPU each), ${fmt(r.rps / b.rps, 3)} of bare node:http (${fmt(b.rps, 0)}/s)`;
    const load = require('node:os').loadavg()[0];
    const when = `${new Date().toISOString().slice(0, 10)}, ${ROUNDS} alternating rounds of ${SLICE_SECONDS} s, ${CONNECTIONS} connections, load average ${fmt(load)} on ${require('node:os').cpus().length} cores`;
    report('OIDC code exchanges/s', `${when}: ${beside(exchanged)}${errors(exchanged)}${errors(portal)}`);
    report('OIDC refreshes/s', `${when}: ${beside(refresh)}${errors(refresh)}${errors(portal)}`);
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

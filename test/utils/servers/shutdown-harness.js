/**
 * SIGTERM rounds against the BUILT server (used by test/e2e/platform/shutdown.e2e-spec.ts and bench/rolling-restart.js):
 * sign-ins and writes are put in flight, each on a connection of its own, the server is sent SIGTERM once every
 * request has been written, and each request's outcome is recorded: an answer, or the error that cut it. A
 * keep-alive connection opened before the signal asks for readiness once the shutdown has begun. The server
 * is then started again on the same directory and the acknowledged writes are looked for in the SQLite file.
 */
const http = require('node:http');
const { join } = require('node:path');
const { startServer } = require('./built-server.js');

const SUPPORT_EMAIL = 'shutdown@vendor.test';
const SUPPORT_PASSWORD = 'Shutdown-Test-Pass-1';

const start = (mainJs, dataDir, env = {}) =>
  startServer(mainJs, {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    RATE_LIMIT_SCALE: '1000',
    BOOTSTRAP_SUPPORT_EMAIL: SUPPORT_EMAIL,
    BOOTSTRAP_SUPPORT_PASSWORD: SUPPORT_PASSWORD,
    ...env,
  });

/** One request on `agent` (false: a connection of its own). Resolves {status, connection, body} or {error}. */
function request(base, method, path, { body, token, agent = false, onWritten } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${base}${path}`, {
      method,
      agent,
      headers: {
        ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection, body: text }));
      res.on('error', (e) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e) => resolve({ error: e.code ?? e.message }));
    req.on('finish', () => onWritten?.());
    req.end(payload);
  });
}

async function signIn(base) {
  const res = await request(base, 'POST', '/auth/login', {
    body: { username: SUPPORT_EMAIL, password: SUPPORT_PASSWORD, acceptToS: true },
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status ?? res.error} ${res.body ?? ''}`);
  return JSON.parse(res.body).accessToken;
}

function storedTitles(dataDir, prefix) {
  const sqlite3 = require('sqlite3');
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(join(dataDir, 'app.sqlite'), sqlite3.OPEN_READONLY);
    db.all('SELECT title FROM announcements WHERE title LIKE ?', [`${prefix}%`], (err, rows) => {
      db.close();
      if (err) reject(err);
      else resolve(new Set(rows.map((r) => r.title)));
    });
  });
}

const waitFor = async (check, ms, what) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

/**
 * One round on a running server: `signIns` sign-ins and `writes` announcements in flight, then SIGTERM.
 * Returns the outcomes, the readiness answer during the shutdown, how many requests were still unanswered when
 * it was asked, the exit code and the stop time.
 */
async function signalRound(server, token, round, { signIns = 40, writes = 40 } = {}) {
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const first = await request(server.base, 'GET', '/api/health/ready', { agent: keepAlive });
  if (first.status !== 200) throw new Error(`not ready before the signal: ${first.status ?? first.error}`);

  let written = 0;
  let answered = 0;
  const onWritten = () => written++;
  const track = (p) => p.then((r) => (answered++, r));
  const titles = Array.from({ length: writes }, (_, i) => `shutdown-${round}-${i}`);
  const logins = Array.from({ length: signIns }, () =>
    track(
      request(server.base, 'POST', '/auth/login', {
        body: { username: SUPPORT_EMAIL, password: SUPPORT_PASSWORD, acceptToS: true },
        onWritten,
      }),
    ),
  );
  const posts = titles.map((title) =>
    track(
      request(server.base, 'POST', '/api/announcements', {
        token,
        body: { title, content: 'Must be answered, and kept, across a SIGTERM.' },
        onWritten,
      }),
    ),
  );
  await waitFor(() => written === signIns + writes, 10_000, 'writing every request');
  const exited = new Promise((resolve) => server.child.once('exit', (code, signal) => resolve({ code, signal })));
  const signalledAt = Date.now();
  server.child.kill('SIGTERM');
  await waitFor(() => /shutting down/.test(server.output()), 10_000, 'the shutdown log line');
  const unansweredAtSignal = signIns + writes - answered;
  const readiness = await request(server.base, 'GET', '/api/health/ready', { agent: keepAlive });
  const [loginResults, postResults] = await Promise.all([Promise.all(logins), Promise.all(posts)]);
  const exit = await exited;
  keepAlive.destroy();
  return {
    logins: loginResults,
    posts: postResults.map((r, i) => ({ ...r, title: titles[i] })),
    readiness,
    unansweredAtSignal,
    exit,
    stopMs: Date.now() - signalledAt,
  };
}

/**
 * `rounds` SIGTERM rounds on one data directory. Per round: the outcomes (status counts and errors), the
 * acknowledged writes missing after the restart, readiness during the shutdown, the exit and stop time.
 */
async function shutdownRounds({ mainJs, dataDir, rounds = 3, env = {}, ...load }) {
  const results = [];
  let server = await start(mainJs, dataDir, env);
  try {
    for (let round = 1; round <= rounds; round++) {
      const token = await signIn(server.base);
      const r = await signalRound(server, token, round, load);
      server = await start(mainJs, dataDir, env);
      const stored = await storedTitles(dataDir, `shutdown-${round}-`);
      const all = [...r.logins, ...r.posts];
      const acknowledged = r.posts.filter((p) => p.status === 201);
      results.push({
        round,
        statuses: all.reduce((m, x) => ((m[x.status ?? x.error] = (m[x.status ?? x.error] ?? 0) + 1), m), {}),
        errors: all.filter((x) => x.error).map((x) => x.error),
        acknowledged: acknowledged.length,
        missing: acknowledged.filter((p) => !stored.has(p.title)).map((p) => p.title),
        readiness: r.readiness.status ?? r.readiness.error,
        readinessConnection: r.readiness.connection,
        unansweredAtSignal: r.unansweredAtSignal,
        exit: r.exit,
        stopMs: r.stopMs,
      });
    }
  } finally {
    server.child.kill('SIGKILL');
  }
  return results;
}

module.exports = { shutdownRounds, start, signIn, request, SUPPORT_EMAIL, SUPPORT_PASSWORD };

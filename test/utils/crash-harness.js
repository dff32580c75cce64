/**
 * Crash rounds against the BUILT server (used by test/e2e/crash.e2e-spec.ts and bench/reliability.js):
 * start `node <build>/main.js` on a data directory, stream writes (announcements, beside site-admin
 * creations that fail inside their transaction and e-support creations that succeed), `kill -9` it at a
 * random moment, start it again on the same directory, and look for every write it had acknowledged.
 */
const { spawn } = require('node:child_process');
const { createServer } = require('node:net');
const { join } = require('node:path');

const SUPPORT_EMAIL = 'crash@vendor.test';
const SUPPORT_PASSWORD = 'Crash-Test-Pass-1';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base, child, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not become healthy within ${ms} ms`);
}

/** Starts the built server; resolves once it is healthy. */
async function startServer(mainJs, dataDir) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: base,
      LOG_LEVEL: 'silent',
      BOOTSTRAP_SUPPORT_EMAIL: SUPPORT_EMAIL,
      BOOTSTRAP_SUPPORT_PASSWORD: SUPPORT_PASSWORD,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  try {
    await waitForHealth(base, child);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${e.message}\n${stderr}`);
  }
  return { child, base };
}

function killHard(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function signIn(base) {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: SUPPORT_EMAIL, password: SUPPORT_PASSWORD, acceptToS: true }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()).accessToken;
}

/**
 * One round: writes streamed by `workers` parallel clients until a random moment in [minMs, maxMs], then
 * kill -9. Returns the titles of the announcements the server acknowledged (201) before it died.
 */
async function streamAndKill(server, token, round, { workers = 6, minMs = 1000, maxMs = 2500 } = {}) {
  const acknowledged = [];
  let stop = false;
  let n = 0;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const post = (path, body) => fetch(`${server.base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const worker = async (w) => {
    while (!stop) {
      const i = n++;
      try {
        if (i % 6 === 1) {
          // A transaction that fails at its end (duplicate organisation code): rolled back, answered 409.
          await post('/auth/site-admin', {
            userEmail: `crash-${round}-${i}@example.com`,
            organizationName: 'Duplicate',
            organizationCode: 'VENDOR',
            allowedUsersNumber: 1,
            maxConcurrentUsers: 1,
            maxPortfolios: 0,
            masterTaxManagerApplicationIds: [],
            masterCorporateActionsApplicationIds: [2],
            userRoleIds: [2],
            accountType: 'Organization',
            ssoLogoutUrl: '',
            isSSO: false,
          }).then((r) => r.arrayBuffer());
        } else {
          const title = `crash-${round}-${w}-${i}`;
          const res = await post('/api/announcements', { title, content: 'Must survive a crash once acknowledged.' });
          await res.arrayBuffer();
          if (res.status === 201) acknowledged.push(title);
        }
      } catch {
        /* the server died mid-request: not acknowledged */
      }
    }
  };
  const running = Array.from({ length: workers }, (_, w) => worker(w));
  await new Promise((r) => setTimeout(r, minMs + Math.random() * (maxMs - minMs)));
  await killHard(server.child);
  stop = true;
  await Promise.all(running);
  return acknowledged;
}

/** Reads every title straight from the SQLite file (what is really stored). */
function storedTitlesFromFile(dataDir, round) {
  const sqlite3 = require('sqlite3');
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(join(dataDir, 'app.sqlite'), sqlite3.OPEN_READONLY);
    db.all('SELECT title FROM announcements WHERE title LIKE ?', [`crash-${round}-%`], (err, rows) => {
      db.close();
      if (err) reject(err);
      else resolve(new Set(rows.map((r) => r.title)));
    });
  });
}

/**
 * `rounds` crash rounds on one data directory. Returns per round the number of acknowledged writes and
 * the titles of those missing after the restart.
 */
async function crashRounds({ mainJs, dataDir, rounds = 2, ...streamOptions }) {
  const results = [];
  let server = await startServer(mainJs, dataDir);
  try {
    for (let round = 1; round <= rounds; round++) {
      const token = await signIn(server.base);
      const acknowledged = await streamAndKill(server, token, round, streamOptions);
      server = await startServer(mainJs, dataDir);
      const stored = await storedTitlesFromFile(dataDir, round);
      results.push({ round, acknowledged: acknowledged.length, missing: acknowledged.filter((t) => !stored.has(t)) });
    }
  } finally {
    await killHard(server.child);
  }
  return results;
}

module.exports = { crashRounds };

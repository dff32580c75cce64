/**
 * Crash rounds against the BUILT server (used by test/e2e/platform/crash.e2e-spec.ts and bench/reliability.js):
 * start `node <build>/main.js` on a data directory, stream writes (announcements, beside site-admin
 * creations that fail inside their transaction and e-support creations that succeed), `kill -9` it at a
 * random moment, start it again on the same directory, and look for every write it had acknowledged.
 */
const { join } = require('node:path');
const { startServer, stopServer } = require('./built-server.js');

const SUPPORT_EMAIL = 'crash@vendor.test';
const SUPPORT_PASSWORD = 'Crash-Test-Pass-1';

const start = (mainJs, dataDir) =>
  startServer(mainJs, {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_SUPPORT_EMAIL: SUPPORT_EMAIL,
    BOOTSTRAP_SUPPORT_PASSWORD: SUPPORT_PASSWORD,
  });

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
  await stopServer(server, 'SIGKILL');
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
  let server = await start(mainJs, dataDir);
  try {
    for (let round = 1; round <= rounds; round++) {
      const token = await signIn(server.base);
      const acknowledged = await streamAndKill(server, token, round, streamOptions);
      server = await start(mainJs, dataDir);
      const stored = await storedTitlesFromFile(dataDir, round);
      results.push({ round, acknowledged: acknowledged.length, missing: acknowledged.filter((t) => !stored.has(t)) });
    }
  } finally {
    await stopServer(server, 'SIGKILL');
  }
  return results;
}

module.exports = { crashRounds };

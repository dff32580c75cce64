/**
 * Sockets in child processes of their own (bench/socket-clients.js), for benchmarks whose sockets would not fit in
 * one process (its descriptor limit) or whose receiving would compete with the process that times them.
 * Delivery times are read from process.hrtime (CLOCK_MONOTONIC: one clock for the machine), so `nowMs()` here is
 * what a publish time is read with.
 */
const { fork } = require('node:child_process');
const { join } = require('node:path');

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `processes` client processes; `connect` spreads sockets over them, `collect` gathers the deliveries since. */
function startFleet(processes) {
  const clients = Array.from({ length: processes }, () => {
    const child = fork(join(__dirname, 'socket-clients.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let pending;
    child.on('message', (answer) => pending?.resolve(answer));
    child.on('exit', (code) => pending?.reject(new Error(`a client process exited (${code})`)));
    const ask = (msg) =>
      new Promise((resolve, reject) => {
        pending = { resolve, reject };
        child.send(msg);
      });
    return { ask, child };
  });
  const all = (msg) => Promise.all(clients.map((c) => c.ask(msg)));
  return {
    /** Opens one socket per path on `port` (mode: 'engine.io' raw clients, or 'socket.io-client'); throws unless all connected. */
    async connect(port, paths, mode = 'engine.io') {
      const share = Math.ceil(paths.length / clients.length);
      const answers = await Promise.all(
        clients.map((c, i) => c.ask({ cmd: 'connect', port, mode, paths: paths.slice(i * share, (i + 1) * share) })),
      );
      const failed = answers.reduce((a, r) => a + r.failed, 0);
      if (failed)
        throw new Error(`${failed} sockets did not connect: ${answers.find((r) => r.firstError)?.firstError}`);
    },
    /** Delivery times (ms after `since`), once `expected` arrived or after 20 s, sorted. */
    async deliveries(since, expected) {
      const until = Date.now() + 20_000;
      const times = [];
      for (;;) {
        await sleep(250);
        for (const r of await all({ cmd: 'collect' })) times.push(...r.times);
        if (times.length >= expected || Date.now() > until) return times.map((t) => t - since).sort((a, b) => a - b);
      }
    },
    close: () => all({ cmd: 'close' }),
    stop: () => clients.forEach((c) => c.child.kill()),
  };
}

module.exports = { startFleet, nowMs };

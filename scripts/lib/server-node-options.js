/**
 * The options of the server's node, however it is started: `npm start` (package.json and scripts/start.js), the
 * image (Dockerfile) and the benchmarks that measure it (bench/lib.js). `src/app/server-node-options.spec.ts` keeps
 * them alike.
 */

/** On every runtime: V8's young generation at its full size from the start (docs/decisions/perf-sockets.md). */
const SERVER_NODE_ARGS = ['--min-semi-space-size=16'];

/**
 * On Node 22 (from 22.7): AsyncLocalStorage carried by V8's continuation data (AsyncContextFrame), Node 24's default,
 * instead of async_hooks' promise hooks. Once any call has used such a storage (the OpenID provider's library runs
 * each of its requests in one, a support-access session's calls run in the product's), those hooks cost every promise
 * the process makes from then on (docs/decisions/async-context.md). Node 20 does not know the option, Node 24 no longer
 * takes it.
 */
const CONTEXT_FRAME = '--experimental-async-context-frame';

/** The server's options on the node that has these allowed options (`process.allowedNodeEnvironmentFlags`). */
function serverNodeArgs(allowed = process.allowedNodeEnvironmentFlags) {
  return allowed.has(CONTEXT_FRAME) ? [...SERVER_NODE_ARGS, CONTEXT_FRAME] : SERVER_NODE_ARGS;
}

/**
 * What `npm start` runs the server with once the build is done: undefined to load `main` in this process, or the
 * argument vector to replace this process with (`process.execve`, Node 22.15 and later), the same node with its own
 * options plus the ones this node takes and was not started with. The process keeps its id, so a signal or an exit
 * code is the server's.
 */
function restartArgs(main, proc = process) {
  const named = (option) => option.split('=')[0];
  const missing = serverNodeArgs(proc.allowedNodeEnvironmentFlags).filter(
    (a) => !proc.execArgv.some((given) => named(given) === named(a)),
  );
  if (missing.length === 0 || typeof proc.execve !== 'function') return undefined;
  return [proc.execPath, ...proc.execArgv, ...missing, main, ...proc.argv.slice(2)];
}

module.exports = { serverNodeArgs, restartArgs };

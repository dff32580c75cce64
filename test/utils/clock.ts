/** Only Date moves: the app's timers and the sockets keep running on real time. */
export function clockAt(now: number): void {
  jest.useFakeTimers({
    doNotFake: [
      'nextTick',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
      'queueMicrotask',
      'hrtime',
      'performance',
    ],
    now,
  });
}

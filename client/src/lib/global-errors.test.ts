import { afterEach, describe, expect, it, vi } from 'vitest';
import { createErrorStream, ERROR_STREAM_THROTTLE_MS, installGlobalErrorHandlers, markSilenced } from './global-errors';

function rejection(reason: unknown): Event {
  const event = new Event('unhandledrejection', { cancelable: true });
  Object.defineProperty(event, 'reason', { value: reason });
  return event;
}

describe('global uncaught errors (spec 001 §8)', () => {
  let uninstall: (() => void) | undefined;
  afterEach(() => {
    uninstall?.();
    vi.restoreAllMocks();
  });

  it('logs uncaught errors and unhandled rejections to the console, once each', () => {
    let now = 0;
    const log = vi.fn();
    uninstall = installGlobalErrorHandlers(window, createErrorStream({ log, now: () => now }));
    const boom = new Error('boom');
    const event = new ErrorEvent('error', { error: boom, message: 'boom', cancelable: true });
    window.dispatchEvent(event);
    expect(log).toHaveBeenCalledWith('Uncaught error:', boom);
    expect(event.defaultPrevented).toBe(true);
    now += 100;
    const reason = new Error('rejected');
    window.dispatchEvent(rejection(reason));
    expect(log).toHaveBeenLastCalledWith('Uncaught error:', reason);
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('an error marked silenced is not logged', () => {
    const log = vi.fn();
    uninstall = installGlobalErrorHandlers(window, createErrorStream({ log }));
    window.dispatchEvent(rejection(markSilenced(new Error('already shown to the user'))));
    window.dispatchEvent(new ErrorEvent('error', { error: markSilenced(new Error('quiet')), cancelable: true }));
    expect(log).not.toHaveBeenCalled();
  });

  it('the stream is throttled to 10 ms: errors within 10 ms of a logged one are dropped', () => {
    expect(ERROR_STREAM_THROTTLE_MS).toBe(10);
    let now = 1000;
    const log = vi.fn();
    const stream = createErrorStream({ log, now: () => now });
    expect(stream(new Error('1'))).toBe(true);
    now += 9;
    expect(stream(new Error('2'))).toBe(false);
    now += 1;
    expect(stream(new Error('3'))).toBe(true);
    for (let i = 0; i < 50; i++) stream(new Error('flood'));
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('the default stream writes to console.error', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    uninstall = installGlobalErrorHandlers();
    window.dispatchEvent(rejection('plain reason'));
    expect(spy).toHaveBeenCalledWith('Uncaught error:', 'plain reason');
  });
});

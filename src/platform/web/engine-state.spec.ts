import { Logger } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';
import { EngineUpReader } from '../metrics/engine-up.reader';
import { EngineChange, EngineState, PROBE_EVERY_MS } from './engine-state';
import { withTestCredentials } from '../../../test/utils/secrets';

/** The lines the EngineState's logger wrote, as [level, text]. */
function linesOf(state: EngineState): Array<[string, string]> {
  const lines: Array<[string, string]> = [];
  const logger = (state as unknown as { logger: Logger }).logger;
  for (const level of ['log', 'warn', 'error'] as const)
    jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => void lines.push([level, String(args[0])]));
  return lines;
}

/** The value of `engine_up{engine}` in the exposition text, or undefined when it has no such line. */
async function engineUp(metrics: MetricsService, engine: string): Promise<number | undefined> {
  const { body } = await metrics.scrape();
  const line = body.split('\n').find((l) => l.startsWith(`engine_up{engine="${engine}"}`));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('EngineState', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('logs one warning when an engine goes away, however many calls fail, and one with the duration when it is back', () => {
    const state = new EngineState();
    const lines = linesOf(state);
    state.watch('database', () => Promise.reject(new Error('still down')));
    for (let i = 0; i < 500; i++) state.down('database', new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    expect(lines).toEqual([['warn', 'database unreachable: connect ECONNREFUSED 127.0.0.1:5432']]);
    expect(state.isUp('database')).toBe(false);

    jest.advanceTimersByTime(8_200);
    state.up('database');
    state.up('database');
    expect(lines).toEqual([
      ['warn', 'database unreachable: connect ECONNREFUSED 127.0.0.1:5432'],
      [
        'warn',
        'database reachable again after 8.2 s (500 calls affected; cause was: connect ECONNREFUSED 127.0.0.1:5432)',
      ],
    ]);
    expect(state.isUp('database')).toBe(true);
    state.onApplicationShutdown();
  });

  it('keeps the engines apart: a Redis outage says nothing of the database', () => {
    const state = new EngineState();
    const lines = linesOf(state);
    state.down('redis', new Error("Stream isn't writeable and enableOfflineQueue options is false"));
    state.down('redis', new Error('again'));
    expect(state.isUp('redis')).toBe(false);
    expect(state.isUp('database')).toBe(true);
    state.up('database');
    expect(lines).toHaveLength(1);
    expect(lines[0][1]).toMatch(/^redis unreachable: Stream isn't writeable/);
  });

  it('while an engine is down its probe runs once a second, and its first answer ends the outage', async () => {
    const state = new EngineState();
    const lines = linesOf(state);
    let answers = false;
    const probe = jest.fn(() => (answers ? Promise.resolve() : Promise.reject(new Error('refused'))));
    state.watch('redis', probe);
    await jest.advanceTimersByTimeAsync(5 * PROBE_EVERY_MS);
    expect(probe).not.toHaveBeenCalled(); // nothing to find out while it is up

    state.down('redis', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    await jest.advanceTimersByTimeAsync(3 * PROBE_EVERY_MS);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(state.isUp('redis')).toBe(false);

    answers = true;
    await jest.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(state.isUp('redis')).toBe(true);
    expect(lines.map(([, text]) => text)).toEqual([
      'redis unreachable: connect ECONNREFUSED 127.0.0.1:6379',
      expect.stringMatching(/^redis reachable again after 4\.0 s \(1 call affected;/),
    ]);
    await jest.advanceTimersByTimeAsync(10 * PROBE_EVERY_MS);
    expect(probe).toHaveBeenCalledTimes(4); // stopped with the outage
  });

  it('tells its listeners of each transition, once', () => {
    const state = new EngineState();
    linesOf(state);
    const changes: EngineChange[] = [];
    const off = state.onChange((c) => changes.push(c));
    state.down('redis', new Error('gone'));
    state.down('redis', new Error('gone'));
    jest.advanceTimersByTime(1500);
    state.up('redis');
    off();
    state.down('redis', new Error('gone again'));
    expect(changes).toEqual([
      { engine: 'redis', up: false, cause: 'gone' },
      { engine: 'redis', up: true, downForMs: 1500, refused: 2 },
    ]);
    state.onApplicationShutdown();
  });

  it('never logs a password of a connection string in a cause', () => {
    const state = new EngineState();
    const lines = linesOf(state);
    const { url, password } = withTestCredentials('postgres://db.internal:5432/portal', 'portal');
    state.down('database', new Error(`could not reach ${url}`));
    expect(lines[0][1]).toBe('database unreachable: could not reach postgres://[redacted]@db.internal:5432/portal');
    expect(lines[0][1]).not.toContain(password);
  });

  it('feeds engine_up: 1 while an engine answers, 0 during its outage; an engine not used has no line', async () => {
    jest.useRealTimers();
    const state = new EngineState();
    linesOf(state);
    const metrics = new MetricsService();
    new EngineUpReader(metrics, state).onModuleInit();
    state.watch('database', () => Promise.resolve());
    expect(await engineUp(metrics, 'database')).toBe(1);
    expect(await engineUp(metrics, 'redis')).toBe(undefined);
    state.down('database', new Error('Connection terminated unexpectedly'));
    expect(await engineUp(metrics, 'database')).toBe(0);
    state.up('database');
    expect(await engineUp(metrics, 'database')).toBe(1);
    state.onApplicationShutdown();
  });
});

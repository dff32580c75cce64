import { Logger } from '@nestjs/common';
import { RETRY_AFTER_OUTAGE_MS, runPeriodically } from './periodic';

describe('runPeriodically', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs after the first delay, then at every interval; a failure is logged and the next run still comes; stop ends it', async () => {
    const logger = { error: jest.fn() } as unknown as Logger;
    let calls = 0;
    const task = jest.fn(async () => {
      if (++calls === 2) throw new Error('disk full');
    });
    const stop = runPeriodically(task, { firstDelayMs: 60_000, everyMs: 3_600_000, logger, what: 'Sweep' });

    await jest.advanceTimersByTimeAsync(59_999);
    expect(task).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(3_600_000 - 60_000);
    expect(task).toHaveBeenCalledTimes(2);
    expect(logger.error).toHaveBeenCalledWith('Sweep failed: disk full');
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(task).toHaveBeenCalledTimes(3);

    stop();
    await jest.advanceTimersByTimeAsync(10 * 3_600_000);
    expect(task).toHaveBeenCalledTimes(3);
  });

  it('a run that finds the database unreachable is a warning, and is tried again a minute later', async () => {
    const logger = { error: jest.fn(), warn: jest.fn() } as unknown as Logger;
    let calls = 0;
    const task = jest.fn(async () => {
      if (++calls === 1)
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    const stop = runPeriodically(task, { firstDelayMs: 1000, everyMs: 86_400_000, logger, what: 'Purge' });
    await jest.advanceTimersByTimeAsync(1000);
    expect(task).toHaveBeenCalledTimes(1);
    expect(logger.error).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledWith(
      'Purge put off for a minute: the database is unreachable (connect ECONNREFUSED 127.0.0.1:5432)',
    );
    await jest.advanceTimersByTimeAsync(RETRY_AFTER_OUTAGE_MS);
    expect(task).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(RETRY_AFTER_OUTAGE_MS * 10);
    expect(task).toHaveBeenCalledTimes(2); // succeeded: back to its daily plan
    stop();
  });
});

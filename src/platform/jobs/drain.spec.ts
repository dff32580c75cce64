import { Logger } from '@nestjs/common';
import { EngineState } from '../web/engine-state';
import { Drain, drainFailureHandler } from './drain';

/** A pass that waits until released, counting its starts. */
function gatedSteps() {
  const gates: Array<() => void> = [];
  const steps = {
    passes: 0,
    after: 0,
    settled: 0,
    failures: [] as unknown[],
    fail: false,
    pass: () => {
      steps.passes++;
      return new Promise<void>((resolve, reject) =>
        gates.push(() => (steps.fail ? reject(new Error('down')) : resolve())),
      );
    },
    afterPasses: async () => void steps.after++,
    failed: (e: unknown) => void steps.failures.push(e),
    settledRun: async () => void steps.settled++,
  };
  const release = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()!();
  };
  return { steps, release };
}

describe('Drain', () => {
  function drainOf(steps: ReturnType<typeof gatedSteps>['steps']) {
    return new Drain({
      pass: steps.pass,
      afterPasses: steps.afterPasses,
      failed: steps.failed,
      settled: steps.settledRun,
    });
  }

  it('kicks during a pass ask for exactly one more pass after it, and share its promise', async () => {
    const { steps, release } = gatedSteps();
    const drain = drainOf(steps);
    const first = drain.kick();
    const second = drain.kick();
    const third = drain.kick();
    expect(second).toBe(first);
    expect(third).toBe(first);
    await release();
    await release();
    await first;
    expect(steps.passes).toBe(2);
    expect(steps.after).toBe(1);
    expect(steps.settled).toBe(1);
  });

  it('a kick after a run has ended starts a new run', async () => {
    const { steps, release } = gatedSteps();
    const drain = drainOf(steps);
    const first = drain.kick();
    await release();
    await first;
    const next = drain.kick();
    expect(next).not.toBe(first);
    await release();
    await next;
    expect(steps.passes).toBe(2);
  });

  it('a failed run is reported once, settles, and the next kick runs again', async () => {
    const { steps, release } = gatedSteps();
    const drain = drainOf(steps);
    steps.fail = true;
    const failing = drain.kick();
    await release();
    await failing;
    expect(steps.failures).toHaveLength(1);
    expect(steps.after).toBe(0);
    expect(steps.settled).toBe(1);
    steps.fail = false;
    const next = drain.kick();
    await release();
    await next;
    expect(steps.after).toBe(1);
  });

  it('stop waits for the run under way and refuses new ones; a failure while stopping is not reported', async () => {
    const { steps, release } = gatedSteps();
    const drain = drainOf(steps);
    void drain.kick();
    drain.kick();
    let stopped = false;
    const stopping = drain.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    steps.fail = true;
    await release();
    await stopping;
    expect(steps.passes).toBe(1);
    expect(steps.failures).toHaveLength(0);
    expect(drain.isStopped).toBe(true);
    await drain.kick();
    expect(steps.passes).toBe(1);
  });
});

describe('drainFailureHandler', () => {
  const logger = () => ({ error: jest.fn() }) as unknown as Logger & { error: jest.Mock };

  it('reports the database gone to the EngineState, and logs nothing of its own', () => {
    const log = logger();
    const engines = { down: jest.fn() } as unknown as EngineState & { down: jest.Mock };
    const gone = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    drainFailureHandler('mail outbox', log, engines)(gone);
    expect(engines.down).toHaveBeenCalledWith('database', gone);
    expect(log.error).not.toHaveBeenCalled();
  });

  it("logs any other failure as the outbox's own error", () => {
    const log = logger();
    const engines = { down: jest.fn() } as unknown as EngineState & { down: jest.Mock };
    drainFailureHandler('delivery outbox', log, engines)(new Error('no such column: claimedBy'));
    expect(engines.down).not.toHaveBeenCalled();
    expect(log.error).toHaveBeenCalledWith('The delivery outbox could not be read: no such column: claimedBy');
  });
});

import { DataSource, EntityManager, QueryRunner, TransactionCommitEvent } from 'typeorm';
import { WakeAfterCommit } from './wake-after-commit';

const turn = () => new Promise((r) => setImmediate(r));

describe('WakeAfterCommit', () => {
  function setup() {
    const dataSource = { subscribers: [] as unknown[] } as unknown as DataSource;
    let wakes = 0;
    const commits = new WakeAfterCommit(() => void wakes++, dataSource);
    const runner = { isTransactionActive: true } as QueryRunner;
    const manager = { queryRunner: runner } as EntityManager;
    const committed = (queryRunner: QueryRunner) =>
      commits.afterTransactionCommit({ queryRunner } as TransactionCommitEvent);
    return { dataSource, commits, runner, manager, committed, wakes: () => wakes };
  }

  it('is told of commits by the data source', () => {
    const { dataSource, commits } = setup();
    expect(dataSource.subscribers).toEqual([commits]);
  });

  it('outside a transaction wakes on the next turn, not in the caller’s way', async () => {
    const { commits, wakes } = setup();
    commits.after();
    commits.after({ queryRunner: { isTransactionActive: false } } as EntityManager);
    expect(wakes()).toBe(0);
    await turn();
    expect(wakes()).toBe(2);
  });

  it('inside a transaction waits for its outermost commit, and wakes once', async () => {
    const { commits, runner, manager, committed, wakes } = setup();
    commits.after(manager);
    await turn();
    expect(wakes()).toBe(0);
    // Another transaction's commit, and a savepoint's release (still in the transaction), wake nothing.
    committed({ isTransactionActive: false } as QueryRunner);
    committed(runner);
    await turn();
    expect(wakes()).toBe(0);
    (runner as { isTransactionActive: boolean }).isTransactionActive = false;
    committed(runner);
    committed(runner);
    await turn();
    expect(wakes()).toBe(1);
  });
});

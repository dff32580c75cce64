import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent } from 'typeorm';

/**
 * Wakes an outbox's runner once what a writer stored can be read: when the writer's transaction commits (the data
 * source tells its subscribers of every commit), or on the next turn of the event loop when it wrote outside one, so
 * the runner never sees a transaction's rows before they are committed nor stands in the way of the caller's answer.
 */
export class WakeAfterCommit implements EntitySubscriberInterface {
  private readonly awaiting = new WeakSet<QueryRunner>();

  constructor(
    private readonly wake: () => void,
    dataSource?: DataSource,
  ) {
    dataSource?.subscribers.push(this);
  }

  /** Wakes the runner once the transaction of `manager` commits (soon, when there is none or it is not in one). */
  after(manager?: EntityManager): void {
    const runner = manager?.queryRunner;
    if (runner?.isTransactionActive) this.awaiting.add(runner);
    else setImmediate(() => this.wake());
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    if (event.queryRunner.isTransactionActive || !this.awaiting.has(event.queryRunner)) return;
    this.awaiting.delete(event.queryRunner);
    setImmediate(() => this.wake());
  }
}

import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AccountEvent } from '../../../shared/identity/account-events';

/** A listener of account changes: it runs inside the change's transaction and writes through `tx` only. */
export type AccountEventListener = (tx: EntityManager, event: AccountEvent) => Promise<void> | void;

/**
 * The one seam through which the account lifecycle announces its changes. `emit` is called inside the change's
 * open transaction and awaits every listener there, so what a listener writes through `tx` (a webhook outbox row,
 * say) commits with the change or not at all; a listener's failure rolls the change back. Other modules register
 * with `subscribe` when they start.
 */
@Injectable()
export class AccountEvents {
  private readonly listeners: AccountEventListener[] = [];

  /** Registers a listener; the returned function removes it. */
  subscribe(listener: AccountEventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  async emit(tx: EntityManager, event: AccountEvent): Promise<void> {
    if (!tx.queryRunner?.isTransactionActive) throw new Error('AccountEvents.emit needs the open transaction');
    for (const listener of [...this.listeners]) await listener(tx, event);
  }
}

import { EventName, InTransaction } from '../../../platform/events';
import { AccountEvent } from '../../../shared/identity/account-events';

/**
 * A change to an account, as the account lifecycle announces it: published inside the change's open transaction,
 * with every handler awaited there, so what a handler writes through `tx` (a webhook outbox row, say) commits with
 * the change or not at all, and a handler's failure rolls the change back.
 */
export interface AccountChanged extends InTransaction {
  event: AccountEvent;
}

export const ACCOUNT_CHANGED: EventName<AccountChanged> = 'account.changed';

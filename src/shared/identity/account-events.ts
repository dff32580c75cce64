/**
 * What happens to an account, as the account lifecycle announces it (docs/architecture.md, 'An account's life'):
 * one event per change, published inside the transaction of the change. Webhooks deliver these shapes as the
 * `data` of their user events (docs/api.md).
 */

export const ACCOUNT_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deactivated',
  'user.reactivated',
  'user.deleted',
  'user.erased',
] as const;
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

/** Who made the change: an account, an API key, the organisation's directory (a provisioning token), or the product. */
export interface AccountEventActor {
  type: 'user' | 'api_key' | 'scim' | 'system';
  /** The account's or the key's or the provisioning token's id; null for the product itself. */
  id: number | null;
}

/** The account as it is after the change (before it, for `user.deleted`). */
export interface AccountEventUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  /** Role codes (`shared/roles.ts` ROLE_CODES): the main role, and ADMINISTRATOR when the flag is held. */
  roles: string[];
  /** Whether the account may sign in: neither disabled nor blocked. */
  active: boolean;
}

/** A change to an account that still names its person. */
export interface AccountChangeEvent {
  type: Exclude<AccountEventType, 'user.erased'>;
  organisationId: number;
  actor: AccountEventActor;
  user: AccountEventUser;
}

/** An account erased (docs/privacy.md): the person is gone, so the event carries the account's id only. */
export interface AccountErasedEvent {
  type: 'user.erased';
  organisationId: number;
  actor: AccountEventActor;
  user: { id: number };
}

export type AccountEvent = AccountChangeEvent | AccountErasedEvent;

import { AuditRecord } from '../../../platform/audit';
import { AuthUser } from '../../../platform/web/auth-user';
import { ScimCaller } from '../../../platform/web/scim-caller';
import { maySignIn } from '../../credentials/may-sign-in';
import { User } from '../../../platform/database/entities/user.entity';
import { AccountChangeEvent, AccountEventActor, AccountEventType } from '../../../shared/identity/account-events';
import { ROLE_CODES } from '../../../shared/roles';

/**
 * Who asks for a change: an account on the pages (the account-action rule of `shared/identity/account-rules.ts` applies), the
 * organisation's directory through a provisioning token, the account itself at its first corporate sign-in, or
 * the product (the first start).
 */
export type AccountActor =
  { type: 'user'; caller: AuthUser } | { type: 'scim'; scim: ScimCaller } | { type: 'self' } | { type: 'system' };

/** The actor as the audit trail names it: the account, the provisioning token, or the new account itself. */
export function auditActor(actor: Exclude<AccountActor, { type: 'system' }>, target: User): AuditRecord['actor'] {
  switch (actor.type) {
    case 'user':
      return actor.caller;
    case 'scim':
      return {
        kind: 'scim-token',
        tokenId: actor.scim.tokenId,
        tokenName: actor.scim.tokenName,
        organisationId: actor.scim.organisationId,
      };
    case 'self':
      return target;
  }
}

/** The actor as account events name it; an account acting on itself is a user. */
export function eventActor(actor: AccountActor, target: User): AccountEventActor {
  switch (actor.type) {
    case 'user':
      return actor.caller.apiKey
        ? { type: 'api_key', id: actor.caller.apiKey.id }
        : { type: 'user', id: actor.caller.id };
    case 'scim':
      return { type: 'scim', id: actor.scim.tokenId };
    case 'self':
      return { type: 'user', id: target.id };
    case 'system':
      return { type: 'system', id: null };
  }
}

/** The event of a change to `user` (as it is after the change; before it, for a deletion). */
export function accountEvent(
  type: Exclude<AccountEventType, 'user.erased'>,
  actor: AccountActor,
  user: User,
): AccountChangeEvent {
  return {
    type,
    organisationId: user.organisationId,
    actor: eventActor(actor, user),
    user: {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      roles: user.roles.map((r) => ROLE_CODES[r]),
      active: maySignIn(user),
    },
  };
}

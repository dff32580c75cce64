import type { EntityManager } from 'typeorm';
import type { User } from '../../../platform/database/entities/user.entity';
import type { RoleChoice } from '../../../shared/identity/account-rules';

/**
 * Pending invitations, as the invitations feature tells them: an invited address's first sign-in through its
 * organisation's provider creates its account with the invited role, even where just-in-time accounts are off (the
 * invitation is the organisation's consent), and accepts the invitation in the same transaction.
 */
export abstract class InvitationConsent {
  /** The open invitation of this address to this organisation, with the role it gives, or null. */
  abstract pendingInvitation(organisationId: number, email: string): Promise<{ id: number; choice: RoleChoice } | null>;
  /** Inside the transaction that creates `user`: the invitation accepted by that account (claimed and audited). */
  abstract acceptThroughProvider(tx: EntityManager, invitationId: number, user: User): Promise<void>;
}

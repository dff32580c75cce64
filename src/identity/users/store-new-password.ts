import { EntityManager } from 'typeorm';
import { AuditRecord, AuditService } from '../../platform/audit';
import { User } from '../../platform/database/entities/user.entity';
import { SessionsService } from '../sessions';

/**
 * Inside `tx`: the account's new password hash (no change pending, none known breached), every session of the
 * account ended as 'password-changed', and the audit event with the account as its target.
 */
export async function storeNewPassword(
  tx: EntityManager,
  sessions: SessionsService,
  audit: AuditService,
  user: User,
  passwordHash: string,
  event: Omit<AuditRecord, 'target'>,
): Promise<void> {
  await tx
    .getRepository(User)
    .update(
      { id: user.id },
      { passwordHash, mustChangePassword: false, passwordChangedAt: new Date(), passwordCompromisedAt: null },
    );
  await sessions.endAllForUsers([user.id], 'password-changed', undefined, tx);
  await audit.record(tx, { ...event, target: user });
}

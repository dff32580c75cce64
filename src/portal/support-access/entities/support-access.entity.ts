import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';
import type { SupportAccessEndReason, SupportAccessStatus } from '../../../shared/portal/support-access';

/**
 * One support-access request and, once started, its session as the member (docs/support-access.md). `status` is
 * what was last written; a pending or approved request past `expiresAt` reads as expired, an active one past
 * `endsAt` as ended (the sweep and the session check write that soon after).
 */
@Entity('support_access')
@Index('IDX_support_access_org', ['organisationId', 'status'])
@Index('IDX_support_access_support_user', ['supportUserId', 'status'])
@Index('IDX_support_access_session', ['sessionId'])
export class SupportAccess {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The member's organisation. */
  @Column({ type: 'integer' })
  organisationId!: number;

  @Column({ type: 'integer' })
  supportUserId!: number;

  /** The E-Support account's e-mail as it was when it asked: the session check names it without another read. */
  @Column({ type: 'varchar', length: 100 })
  supportUserEmail!: string;

  /** The member. */
  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'varchar', length: 500 })
  reason!: string;

  @Column({ type: 'varchar', length: 10 })
  status!: SupportAccessStatus;

  @Column({ type: DATE_TYPE })
  requestedAt!: Date;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;

  /** The site admin who approved or refused it; null when the policy approved it or nobody decided. */
  @Column({ type: 'integer', nullable: true })
  decidedBy!: number | null;

  @Column({ type: DATE_TYPE, nullable: true })
  startedAt!: Date | null;

  @Column({ type: DATE_TYPE, nullable: true })
  endsAt!: Date | null;

  @Column({ type: DATE_TYPE, nullable: true })
  endedAt!: Date | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  endReason!: SupportAccessEndReason | null;

  /** The session started as the member. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  sessionId!: string | null;
}

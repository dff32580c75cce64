import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../database/column-types';

/**
 * An e-mail the product has promised to send, or a task whose outcome may be one (kind other than 'mail':
 * a password-reset request, resolved to a message or to nothing after the answer). It is stored before the
 * request that causes it is answered, and handled in the background; a failure is retried later, and rows
 * left unhandled are resumed at start, so an acknowledged message is never lost (delivery is at least once).
 */
@Entity('mail_outbox')
@Index('IDX_mail_outbox_pending', ['sentAt', 'nextAttemptAt'])
export class OutboxMessage {
  @PrimaryGeneratedColumn()
  id!: number;

  /** 'mail', or the name of a registered task. */
  @Column({ type: 'varchar', length: 40, default: 'mail' })
  kind!: string;

  /** A task's input (JSON); cleared once handled. */
  @Column({ type: 'text', nullable: true })
  payload!: string | null;

  @Column({ type: 'varchar', length: 320 })
  to!: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  replyTo!: string | null;

  @Column({ type: 'varchar', length: 500 })
  subject!: string;

  @Column({ type: 'text' })
  text!: string;

  /** Failed deliveries so far. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** Not tried before this time (the backoff after a failure). */
  @Column({ type: DATE_TYPE })
  nextAttemptAt!: Date;

  /** While a delivery is under way: the time after which another instance may take the message over. */
  @Column({ type: DATE_TYPE, nullable: true })
  claimedUntil!: Date | null;

  @Column({ type: DATE_TYPE, nullable: true })
  sentAt!: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @CreateDateColumn()
  createdAt!: Date;
}

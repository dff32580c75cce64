import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../database/column-types';

/**
 * An e-mail the product has promised to send. It is stored before the request that causes it is answered,
 * and delivered in the background; a failed delivery is retried later, and undelivered messages are resumed
 * at start, so an acknowledged message is never lost (delivery is at least once).
 */
@Entity('mail_outbox')
@Index('IDX_mail_outbox_pending', ['sentAt', 'nextAttemptAt'])
export class OutboxMessage {
  @PrimaryGeneratedColumn()
  id!: number;

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

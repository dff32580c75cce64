import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';
import type { DeliveryStatus } from '../../../shared/administration/integrations';

/**
 * The outbox of webhooks and log streams: one row per event and receiver, written in the transaction of the change
 * it tells of. An instance takes a due row by a conditional UPDATE (claimedBy, claimedUntil) so each attempt is made
 * once; a claim that runs out (a killed instance) lets another take it over.
 */
@Entity('integration_deliveries')
@Index('IDX_integration_deliveries_due', ['status', 'nextAttemptAt'])
@Index('IDX_integration_deliveries_endpoint', ['endpointId', 'id'])
@Index('IDX_integration_deliveries_stream', ['streamId', 'status'])
export class IntegrationDelivery {
  @PrimaryGeneratedColumn()
  id!: number;

  /** A webhook delivery's endpoint; null for a log stream's. */
  @Column({ type: 'integer', nullable: true })
  endpointId!: number | null;

  @Column({ type: 'integer', nullable: true })
  streamId!: number | null;

  /** `msg_…`: the webhook-id header, shared by the event's deliveries to every endpoint. */
  @Column({ type: 'varchar', length: 40 })
  eventId!: string;

  /** The webhook event type, or the audit event type for a log stream. */
  @Column({ type: 'varchar', length: 60 })
  type!: string;

  /** The webhook body, or the audit event as GET /api/audit-events lists it (JSON). */
  @Column({ type: 'text' })
  payload!: string;

  @Column({ type: DATE_TYPE })
  occurredAt!: Date;

  @Column({ type: 'varchar', length: 10, default: 'pending' })
  status!: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: DATE_TYPE, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ type: 'varchar', length: 60, nullable: true })
  claimedBy!: string | null;

  @Column({ type: DATE_TYPE, nullable: true })
  claimedUntil!: Date | null;

  @Column({ type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: DATE_TYPE, nullable: true })
  finishedAt!: Date | null;
}

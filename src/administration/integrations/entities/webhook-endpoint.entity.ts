import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';
import { Organisation } from '../../../platform/database/entities/organisation.entity';

/**
 * Where an organisation's webhooks go. The signing secret is kept encrypted (AES-256-GCM with ENCRYPTION_KEY); after a
 * rotation the previous one signs too until previousSecretUntil.
 */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_webhook_endpoints_org')
  @Column({ type: 'integer' })
  organisationId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisationId' })
  organisation?: Organisation;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** The subscribed event types as a JSON array; `["*"]` for all. */
  @Column({ type: 'text' })
  events!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  description!: string | null;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'varchar', length: 200, nullable: true })
  disabledReason!: string | null;

  @Column({ type: 'varchar', length: 300 })
  secretSealed!: string;

  @Column({ type: 'varchar', length: 300, nullable: true })
  previousSecretSealed!: string | null;

  @Column({ type: DATE_TYPE, nullable: true })
  previousSecretUntil!: Date | null;

  /** The first failed attempt since the last success; null while the endpoint answers. */
  @Column({ type: DATE_TYPE, nullable: true })
  failingSince!: Date | null;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: 'varchar', length: 100, nullable: true })
  createdBy!: string | null;
}

import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import type { LogStreamType } from '../../../shared/administration/integrations';

/** A receiver of an organisation's audit events (or, organisationId null, of every organisation's). */
@Entity('log_streams')
export class LogStream {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_log_streams_org')
  @Column({ type: 'integer', nullable: true })
  organisationId!: number | null;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisationId' })
  organisation?: Organisation;

  @Column({ type: 'varchar', length: 20 })
  type!: LogStreamType;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** The receiver's token, encrypted with ENCRYPTION_KEY; never returned. */
  @Column({ type: 'varchar', length: 1000 })
  tokenSealed!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: 'varchar', length: 100, nullable: true })
  createdBy!: string | null;

  @Column({ type: DATE_TYPE, nullable: true })
  lastDeliveredAt!: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;
}

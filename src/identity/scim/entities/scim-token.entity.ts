import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';
import { Organisation } from '../../../platform/database/entities/organisation.entity';

/**
 * A provisioning token of one organisation: what its directory (Entra ID, Okta) presents as `Authorization: Bearer`
 * on /scim/v2. Kept as its SHA-256 hash only; revoking deletes the row, so the next call with it finds nothing.
 */
@Entity('scim_tokens')
export class ScimToken {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_scim_tokens_org')
  @Column({ type: 'integer' })
  organisationId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisationId' })
  organisation?: Organisation;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  @Index('IDX_scim_tokens_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: 'varchar', length: 100, nullable: true })
  createdBy!: string | null;

  /** The latest use, written at most once a minute (with its audit event). */
  @Column({ type: DATE_TYPE, nullable: true })
  lastUsedAt!: Date | null;
}

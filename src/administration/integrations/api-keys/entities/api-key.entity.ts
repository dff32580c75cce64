import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../../platform/database/column-types';
import { Organisation } from '../../../../platform/database/entities/organisation.entity';

/**
 * An organisation API key (docs/api-keys.md): what the organisation's own systems present as
 * `Authorization: Bearer tpk_…`. Kept as the SHA-256 of the key only (the key is 32 random bytes, so a plain hash
 * is enough); revoking deletes the row, so the next call with the key finds nothing on any instance.
 */
@Entity('api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_api_keys_org')
  @Column({ type: 'integer' })
  organisationId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisationId' })
  organisation?: Organisation;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  /** The key's first characters, shown to tell keys apart. */
  @Column({ type: 'varchar', length: 20 })
  prefix!: string;

  @Index('IDX_api_keys_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  keyHash!: string;

  /** The scopes, space-separated (shared/administration/api-keys.ts API_KEY_SCOPES). */
  @Column({ type: 'varchar', length: 200 })
  scopes!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: 'varchar', length: 100, nullable: true })
  createdBy!: string | null;

  @Column({ type: DATE_TYPE, nullable: true })
  expiresAt!: Date | null;

  /** The latest use, written at most once a minute. */
  @Column({ type: DATE_TYPE, nullable: true })
  lastUsedAt!: Date | null;
}

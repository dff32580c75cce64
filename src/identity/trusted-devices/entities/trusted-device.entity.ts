import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * A browser on which the account's owner chose "Don't ask again". The cookie carries a random
 * token; only its SHA-256 is stored, so the table alone cannot make a cookie. Revoking deletes the row.
 */
@Entity('mfa_trusted_devices')
@Index('IDX_mfa_trusted_devices_user', ['userId'])
export class TrustedDevice {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Index('UQ_mfa_trusted_devices_token', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @Column({ type: 'varchar', length: 100 })
  label!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: DATE_TYPE, nullable: true })
  lastUsedAt!: Date | null;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;
}

import { Column, CreateDateColumn, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * The columns every single-use secret shares: stored as its SHA-256 hash (64 hex characters), with its expiry
 * and when it was used. Not an entity: each token table extends it and names its own (unique) hash index.
 */
export abstract class HashedToken {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;

  /** When it was used (for a refresh token: exchanged for its successor; presenting it again afterwards is reuse). */
  @Column({ type: DATE_TYPE, nullable: true })
  usedAt!: Date | null;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../database/column-types';

/** An opaque refresh token, stored as its SHA-256 hash. Rotated on every use (CONTRACT 3). */
@Entity('refresh_tokens')
export class RefreshToken {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_refresh_tokens_session')
  @Column({ type: 'varchar', length: 36 })
  sessionId!: string;

  @Index('IDX_refresh_tokens_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;

  /** When it was exchanged for its successor; presenting it again afterwards is reuse. */
  @Column({ type: DATE_TYPE, nullable: true })
  usedAt!: Date | null;

  /** The token this one succeeded (unique: one successor each); its insertion marks that one used (a trigger). */
  @Index('IDX_refresh_tokens_replaces', { unique: true })
  @Column({ type: 'integer', nullable: true })
  replacesId!: number | null;
}

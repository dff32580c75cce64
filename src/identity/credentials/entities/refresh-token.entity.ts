import { Column, Entity, Index } from 'typeorm';
import { HashedToken } from './hashed-token';

/** An opaque refresh token, stored as its SHA-256 hash. Rotated on every use (docs/product-rules.md §3). */
@Entity('refresh_tokens')
@Index('IDX_refresh_tokens_hash', ['tokenHash'], { unique: true })
export class RefreshToken extends HashedToken {
  @Index('IDX_refresh_tokens_session')
  @Column({ type: 'varchar', length: 36 })
  sessionId!: string;

  /** The token this one succeeded (unique: one successor each); its insertion marks that one used (a trigger). */
  @Index('IDX_refresh_tokens_replaces', { unique: true })
  @Column({ type: 'integer', nullable: true })
  replacesId!: number | null;
}

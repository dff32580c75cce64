import { Column, Entity, Index } from 'typeorm';
import { HashedToken } from '../../credentials/entities/hashed-token';

/** A forgotten-password link: single use, one hour, stored as its SHA-256 hash. */
@Entity('password_reset_tokens')
@Index('IDX_password_reset_tokens_hash', ['tokenHash'], { unique: true })
export class PasswordResetToken extends HashedToken {
  @Index('IDX_password_reset_tokens_user')
  @Column({ type: 'integer' })
  userId!: number;
}

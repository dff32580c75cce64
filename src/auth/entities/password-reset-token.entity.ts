import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../database/column-types';

/** A forgotten-password link: single use, one hour, stored as its SHA-256 hash. */
@Entity('password_reset_tokens')
export class PasswordResetToken {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_password_reset_tokens_user')
  @Column({ type: 'integer' })
  userId!: number;

  @Index('IDX_password_reset_tokens_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;

  @Column({ type: DATE_TYPE, nullable: true })
  usedAt!: Date | null;
}

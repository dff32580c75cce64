import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/** One single-use recovery code, stored as a keyed hash; a used one keeps its row until the next set. */
@Entity('mfa_recovery_codes')
@Index('IDX_mfa_recovery_codes_user', ['userId', 'usedAt'])
export class RecoveryCode {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  /** HMAC-SHA256 of the user id and the normalised code (hex). */
  @Column({ type: 'varchar', length: 64 })
  codeHash!: string;

  @Column({ type: DATE_TYPE, nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn()
  createdAt!: Date;
}

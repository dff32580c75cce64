import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/** One sign-in or failed attempt on an account, for its owner's security page; written with its audit event. */
@Entity('sign_in_history')
@Index('IDX_sign_in_history_user_at', ['userId', 'at', 'id'])
@Index('IDX_sign_in_history_at', ['at'])
export class SignInHistory {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: DATE_TYPE })
  at!: Date;

  @Column({ type: 'varchar', length: 10 })
  outcome!: 'succeeded' | 'failed';

  @Column({ type: 'varchar', length: 10, nullable: true })
  method!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  userAgent!: string | null;

  @Column({ type: 'boolean', default: false })
  newDevice!: boolean;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Feedback a signed-in user gave through the Give Feedback dialog (spec 001 §2.9, §3). */
@Entity('user_feedback')
export class UserFeedback {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 200 })
  title!: string;

  @Column({ type: 'text' })
  content!: string;

  @Index('IDX_user_feedback_user')
  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  @CreateDateColumn()
  createdAt!: Date;
}

import { Column, Entity, Index } from 'typeorm';
import { TitledText } from '../../../platform/web/entities/titled-text';

/** Feedback a signed-in user gave through the Give Feedback dialog (spec 001 §2.9, §3). */
@Entity('user_feedback')
export class UserFeedback extends TitledText {
  @Index('IDX_user_feedback_user')
  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer' })
  organisationId!: number;
}

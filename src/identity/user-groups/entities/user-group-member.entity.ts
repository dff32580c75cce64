import { CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A user's membership of a user group. */
@Entity('user_group_members')
@Index('IDX_user_group_members_user', ['userId'])
export class UserGroupMember {
  @PrimaryColumn({ type: 'integer' })
  groupId!: number;

  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @CreateDateColumn()
  createdAt!: Date;
}

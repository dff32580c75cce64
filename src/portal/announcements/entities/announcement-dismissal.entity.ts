import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A user's dismissal of an announcement: the banner stays hidden for them. */
@Entity('announcement_dismissals')
@Index('IDX_announcement_dismissals_unique', ['announcementId', 'userId'], { unique: true })
export class AnnouncementDismissal {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  announcementId!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @CreateDateColumn()
  createdAt!: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An announcement published by E-Support, to every organisation (organisationId null) or to one. */
@Entity('announcements')
export class Announcement {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 200 })
  title!: string;

  @Column({ type: 'text' })
  content!: string;

  @Index('IDX_announcements_org')
  @Column({ type: 'integer', nullable: true })
  organisationId!: number | null;

  @Column({ type: 'integer' })
  createdById!: number;

  @CreateDateColumn()
  createdAt!: Date;
}

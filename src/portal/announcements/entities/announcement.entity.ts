import { Column, Entity, Index } from 'typeorm';
import { TitledText } from '../../../platform/web/entities/titled-text';

/** An announcement published by E-Support, to every organisation (organisationId null) or to one. */
@Entity('announcements')
export class Announcement extends TitledText {
  @Index('IDX_announcements_org')
  @Column({ type: 'integer', nullable: true })
  organisationId!: number | null;

  @Column({ type: 'integer' })
  createdById!: number;
}

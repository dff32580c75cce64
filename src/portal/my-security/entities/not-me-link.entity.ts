import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/** The one-time "This wasn't me" link of a new-browser e-mail; only the SHA-256 of its token is kept. */
@Entity('not_me_links')
export class NotMeLink {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Index('UQ_not_me_links_token', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;

  @Column({ type: DATE_TYPE, nullable: true })
  usedAt!: Date | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/** A browser an account has signed in from, known by the SHA-256 of its browser cookie. */
@Entity('known_browsers')
export class KnownBrowser {
  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  browserHash!: string;

  @Column({ type: DATE_TYPE })
  firstSeenAt!: Date;

  @Column({ type: DATE_TYPE })
  lastSeenAt!: Date;
}

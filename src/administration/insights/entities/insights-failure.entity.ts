import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How many sign-ins of an organisation failed for one reason on one day. */
@Entity('insights_failures')
export class InsightsFailure {
  @PrimaryColumn({ type: 'integer' })
  organisationId!: number;

  @PrimaryColumn({ type: 'varchar', length: 10 })
  day!: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  reason!: string;

  @Column({ type: 'integer', default: 0 })
  n!: number;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An organisation's sign-ins of one day (in INSIGHTS_TIME_ZONE), counted as they are audited. */
@Entity('insights_daily')
export class InsightsDay {
  @PrimaryColumn({ type: 'integer' })
  organisationId!: number;

  /** YYYY-MM-DD */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  day!: string;

  @Column({ type: 'integer', default: 0 })
  succeededPassword!: number;

  @Column({ type: 'integer', default: 0 })
  succeededPasskey!: number;

  @Column({ type: 'integer', default: 0 })
  succeededSso!: number;

  @Column({ type: 'integer', default: 0 })
  failedPassword!: number;

  @Column({ type: 'integer', default: 0 })
  failedPasskey!: number;

  @Column({ type: 'integer', default: 0 })
  failedSso!: number;

  /** The most users signed in at once that day, as seen at each sign-in. */
  @Column({ type: 'integer', default: 0 })
  peakConcurrent!: number;

  /** Active accounts with a second factor, and active accounts, as last recorded that day; null before any. */
  @Column({ type: 'integer', nullable: true })
  mfaEnrolled!: number | null;

  @Column({ type: 'integer', nullable: true })
  mfaTotal!: number | null;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * The end of a test sign-in through a connection (an `SsoTestResult` as JSON), readable for a few minutes by the
 * administrator who started it: the round trip ends in a browser redirect, and any instance may serve the read.
 */
@Entity('sso_test_results')
@Index('IDX_sso_test_results_expires', ['expiresAt'])
export class SsoTestResultRow {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'integer' })
  connectionId!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'text' })
  result!: string;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;
}

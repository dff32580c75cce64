import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * Values that may be used once, shared by every instance through the database: outstanding SAML request ids
 * (InResponseTo), and the ids of SAML assertions and logout tokens already accepted. The primary key makes
 * the second insert of a value fail, whichever instance makes it.
 */
@Entity('sso_one_time_values')
@Index('IDX_sso_one_time_values_expires', ['expiresAt'])
export class SsoOneTimeValue {
  @PrimaryColumn({ type: 'varchar', length: 400 })
  key!: string;

  @Column({ type: 'varchar', length: 100 })
  value!: string;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;
}

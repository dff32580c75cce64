import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * One record of the OpenID provider (an authorization code, a token, a grant, a browser session, an interaction…),
 * stored for every instance alike: keyed by its model and id, with the columns the provider looks records up by.
 */
@Entity('oidc_records')
@Index('IDX_oidc_records_client_account', ['clientId', 'accountId'])
export class OidcRecord {
  @PrimaryColumn({ type: 'varchar', length: 50 })
  model!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  /** The provider's payload, as JSON. */
  @Column({ type: 'text' })
  payload!: string;

  @Index('IDX_oidc_records_grant')
  @Column({ type: 'varchar', length: 255, nullable: true })
  grantId!: string | null;

  @Index('IDX_oidc_records_user_code')
  @Column({ type: 'varchar', length: 255, nullable: true })
  userCode!: string | null;

  @Index('IDX_oidc_records_uid')
  @Column({ type: 'varchar', length: 255, nullable: true })
  uid!: string | null;

  /** The application and the account a code, token or grant was issued for (revoked together). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  clientId!: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  accountId!: string | null;

  @Index('IDX_oidc_records_expires')
  @Column({ type: DATE_TYPE, nullable: true })
  expiresAt!: Date | null;

  /** Set once a single-use record (a code, a rotated refresh token) has been used. */
  @Column({ type: DATE_TYPE, nullable: true })
  consumedAt!: Date | null;
}

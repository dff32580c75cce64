import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/** An application a member signed in to, with the scopes it was given: consent once, withdrawn on My Security. */
@Entity('oidc_consents')
export class OidcConsent {
  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @Index('IDX_oidc_consents_client')
  @PrimaryColumn({ type: 'varchar', length: 64 })
  clientId!: string;

  /** Space-separated. */
  @Column({ type: 'varchar', length: 300 })
  scopes!: string;

  @Column({ type: DATE_TYPE })
  grantedAt!: Date;

  @Column({ type: DATE_TYPE, nullable: true })
  lastUsedAt!: Date | null;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * A key the provider signs ID tokens, access tokens and logout tokens with, shared by every instance. The newest
 * unretired key signs; a retired key stays published in the JWKS until every token it signed has expired.
 */
@Entity('oidc_signing_keys')
export class OidcSigningKey {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid!: string;

  @Column({ type: 'varchar', length: 10 })
  alg!: 'ES256' | 'RS256';

  /** The private JWK as JSON, sealed with the deployment's encryption key. */
  @Column({ type: 'text' })
  privateJwkSealed!: string;

  @CreateDateColumn()
  createdAt!: Date;

  /** When a newer key took over signing. */
  @Column({ type: DATE_TYPE, nullable: true })
  retiredAt!: Date | null;
}

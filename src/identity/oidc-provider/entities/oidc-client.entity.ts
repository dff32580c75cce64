import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';
import type { OidcClientType } from '../../../shared/identity/oidc-clients';

/**
 * An application registered with the portal's OpenID provider: one of the deployment's (no organisation: every
 * organisation's members, no consent screen) or an organisation's own (only its members, each consenting once).
 * A confidential application's secret is kept sealed with the deployment's encryption key: the provider compares
 * the secret a client presents with the one registered, so it must be readable to the server (never to a caller).
 */
@Entity('oidc_clients')
export class OidcClient {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_oidc_clients_client_id', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  clientId!: string;

  @Index('IDX_oidc_clients_org')
  @Column({ type: 'integer', nullable: true })
  organisationId!: number | null;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 20 })
  type!: OidcClientType;

  @Column({ type: 'simple-json' })
  redirectUris!: string[];

  @Column({ type: 'simple-json' })
  postLogoutRedirectUris!: string[];

  @Column({ type: 'varchar', length: 2048, nullable: true })
  backchannelLogoutUri!: string | null;

  /** AES-256-GCM of the secret (platform/crypto/secrets.ts); null for a public application. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  secretSealed!: string | null;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: 'varchar', length: 100, nullable: true })
  createdBy!: string | null;

  /** The latest sign-in or token it obtained, written at most once a minute. */
  @Column({ type: DATE_TYPE, nullable: true })
  lastUsedAt!: Date | null;
}

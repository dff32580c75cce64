import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { SsoProtocol } from '../../../shared/identity/sso';
import { Role } from '../../../shared/roles';

/**
 * An organisation's own identity provider (docs/product-rules.md §6). OIDC connections keep the issuer and client; the
 * client secret is stored sealed with ENCRYPTION_KEY. SAML connections keep the IdP's metadata as given and
 * what was read from it, so a sign-in needs no parse.
 */
@Entity('sso_connections')
@Index('IDX_sso_connections_org', ['organisationId'])
export class SsoConnection {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  @Column({ type: 'varchar', length: 10 })
  protocol!: SsoProtocol;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'boolean', default: false })
  jitProvisioning!: boolean;

  /** The role of accounts created just in time; null: the base role. */
  @Column({ type: 'integer', nullable: true })
  defaultRoleId!: Role | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  oidcIssuer!: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  oidcClientId!: string | null;

  /** AES-256-GCM with ENCRYPTION_KEY; never returned. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  oidcClientSecret!: string | null;

  @Column({ type: 'text', nullable: true })
  samlMetadataXml!: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  samlEntityId!: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  samlSsoUrl!: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  samlSloUrl!: string | null;

  /** The IdP's signing certificates, base64 DER as in the metadata. */
  @Column({ type: 'simple-json', nullable: true })
  samlCertificates!: string[] | null;

  @CreateDateColumn()
  createdAt!: Date;

  @UpdateDateColumn()
  updatedAt!: Date;
}

import { Column, Entity, Index } from 'typeorm';
import { IssuedSecretColumns } from '../../../platform/issued-secrets/issued-secret.columns';

/**
 * A provisioning token of one organisation: what its directory (Entra ID, Okta) presents as `Authorization: Bearer`
 * on /scim/v2. Kept as its SHA-256 hash only; revoking deletes the row, so the next call with it finds nothing. Its
 * latest use is written with its audit event.
 */
@Entity('scim_tokens')
@Index('IDX_scim_tokens_org', ['organisationId'])
export class ScimToken extends IssuedSecretColumns {
  @Index('IDX_scim_tokens_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;
}

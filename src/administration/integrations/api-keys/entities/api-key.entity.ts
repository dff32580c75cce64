import { Column, Entity, Index } from 'typeorm';
import { DATE_TYPE } from '../../../../platform/database/column-types';
import { IssuedSecretColumns } from '../../../../platform/issued-secrets/issued-secret.columns';

/**
 * An organisation API key (docs/api-keys.md): what the organisation's own systems present as
 * `Authorization: Bearer tpk_…`. Kept as the SHA-256 of the key only; revoking deletes the row, so the next call with
 * the key finds nothing on any instance.
 */
@Entity('api_keys')
@Index('IDX_api_keys_org', ['organisationId'])
export class ApiKey extends IssuedSecretColumns {
  /** The key's first characters, shown to tell keys apart. */
  @Column({ type: 'varchar', length: 20 })
  prefix!: string;

  @Index('IDX_api_keys_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  keyHash!: string;

  /** The scopes, space-separated (shared/administration/api-keys.ts API_KEY_SCOPES). */
  @Column({ type: 'varchar', length: 200 })
  scopes!: string;

  @Column({ type: DATE_TYPE, nullable: true })
  expiresAt!: Date | null;
}

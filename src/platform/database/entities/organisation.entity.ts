import type { SupportAccessPolicy } from '../../../shared/portal/support-access';
import { Column, ColumnOptions, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DATE_TYPE } from '../column-types';

export type AccountType = 'ORGANIZATION' | 'INDIVIDUAL';

/** The columns holding the organisation's security policy, each named as its field of SECURITY_POLICY_FIELDS. */
export const SECURITY_POLICY_COLUMNS: string[] = [];

/**
 * A column of the security policy: listed in SECURITY_POLICY_COLUMNS, which security-policy-fields.spec.ts holds to
 * the policy's fields (shared/administration/security-policy.ts), with its kind, nullability and default.
 */
function PolicyColumn(options: ColumnOptions): PropertyDecorator {
  return (target, property) => {
    SECURITY_POLICY_COLUMNS.push(String(property));
    Column(options)(target, property);
  };
}

/** An organisation (the specification's master account). Everything it owns is visible only inside it. */
@Entity('organisations')
export class Organisation {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 25, unique: true })
  code!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 20, default: 'ORGANIZATION' })
  accountType!: AccountType;

  /** The vendor's own organisation, home of the E-Support accounts. */
  @Column({ type: 'boolean', default: false })
  isVendor!: boolean;

  @Column({ type: 'integer', default: 1 })
  allowedUsersNumber!: number;

  @Column({ type: 'integer', default: 1 })
  maxConcurrentUsers!: number;

  @Column({ type: 'integer', default: 0 })
  maxPortfolios!: number;

  /** Application entitlements, e.g. ['TAX_MANAGER', 'CA_VIEWER']. */
  @Column({ type: 'simple-json', default: '[]' })
  applications!: string[];

  @Column({ type: 'boolean', default: false })
  isSSOEnabled!: boolean;

  @Column({ type: 'varchar', length: 500, nullable: true })
  ssoLogoutUrl!: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  logoPath!: string | null;

  // The organisation's security policy (docs/security-policy.md), read with the session on every call: each field a
  // @PolicyColumn.

  @PolicyColumn({ type: 'boolean', default: false })
  mfaRequired!: boolean;

  @PolicyColumn({ type: 'boolean', default: false })
  ssoRequired!: boolean;

  /** The site admin who last saved the policy requiring SSO: their password sign-in stays open. */
  @Column({ type: 'integer', nullable: true })
  ssoRequiredBy!: number | null;

  /** CIDR ranges, stored in their canonical form; empty: every address. */
  @PolicyColumn({ type: 'simple-json', default: '[]' })
  allowedIpRanges!: string[];

  @PolicyColumn({ type: 'integer', nullable: true })
  sessionIdleMinutes!: number | null;

  @PolicyColumn({ type: 'integer', nullable: true })
  sessionMaxHours!: number | null;

  @PolicyColumn({ type: 'integer', default: 8 })
  passwordMinLength!: number;

  /** Members may delete their own account (docs/privacy.md). */
  @PolicyColumn({ type: 'boolean', default: false })
  selfDeletion!: boolean;

  /** Days the organisation's audit events are kept; null: the deployment's AUDIT_RETENTION_DAYS. */
  @PolicyColumn({ type: 'integer', nullable: true })
  auditRetentionDays!: number | null;
  /** Whether E-Support may act as a member (docs/support-access.md): never, with a site admin's approval, always. */
  @PolicyColumn({ type: 'varchar', length: 10, default: 'approval' })
  supportAccess!: SupportAccessPolicy;

  /** When the policy was last saved: an idle limit counts no session's idle time from before it. */
  @Column({ type: DATE_TYPE, nullable: true })
  securityPolicyAt!: Date | null;

  @CreateDateColumn()
  createdAt!: Date;

  @UpdateDateColumn()
  updatedAt!: Date;
}

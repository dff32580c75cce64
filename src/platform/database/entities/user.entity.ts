import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { DATE_TYPE } from '../column-types';
import { Organisation } from './organisation.entity';
import { effectiveRoles, Role } from '../../../shared/roles';

@Entity('users')
// The list's index (migration UserListIndex): its order, the id (PostgreSQL's entries hold no id), the filters.
@Index('IDX_users_org_search', [
  'organisationId',
  'lastName',
  'firstName',
  'email',
  'id',
  'roleId',
  'isAdministrator',
  'isDisabled',
  'isBlocked',
])
@Index('IDX_users_org_role', ['organisationId', 'roleId'])
@Index('IDX_users_org_access', ['organisationId', 'isDisabled', 'isBlocked'])
@Index('IDX_users_org_external', ['organisationId', 'externalId'])
export class User {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_users_org')
  @Column({ type: 'integer' })
  organisationId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisationId' })
  organisation?: Organisation;

  /** Lower-cased; unique across the product since it is the sign-in name. */
  @Column({ type: 'varchar', length: 100, unique: true })
  email!: string;

  /** argon2id hash; null for an account that signs in only through corporate SSO. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  passwordHash!: string | null;

  @Column({ type: 'varchar', length: 100, default: '' })
  firstName!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  lastName!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  jobTitle!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  department!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  location!: string;

  /** The main role (docs/product-rules.md §2). */
  @Column({ type: 'integer', default: Role.STANDARD_ADMIN })
  roleId!: Role;

  /** The administrator flag, held beside the main role. */
  @Column({ type: 'boolean', default: false })
  isAdministrator!: boolean;

  @Column({ type: 'boolean', default: false })
  isDisabled!: boolean;

  /** Blocked by the system (as opposed to disabled by an administrator). */
  @Column({ type: 'boolean', default: false })
  isBlocked!: boolean;

  @Column({ type: 'boolean', default: true })
  isMFAEnforced!: boolean;

  @Column({ type: 'boolean', default: false })
  isMFAEnabled!: boolean;

  /** Passkeys: the account has at least one registered passkey; kept in step with the passkeys table. */
  @Column({ type: 'boolean', default: false })
  hasPasskey!: boolean;

  /** TOTP secret, encrypted (AES-256-GCM) with the key in DATA_DIR. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  mfaSecret!: string | null;

  /** Secret of an enrolment under way, encrypted; becomes mfaSecret when the first code verifies. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  mfaPendingSecret!: string | null;

  /** The last TOTP time step accepted: a code is good once only. */
  @Column({ type: 'integer', nullable: true })
  mfaLastUsedStep!: number | null;

  /** Hash of an e-mailed MFA code, and when it stops being valid. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  emailMfaCodeHash!: string | null;

  @Column({ type: DATE_TYPE, nullable: true })
  emailMfaCodeExpiresAt!: Date | null;

  @Column({ type: 'boolean', default: false })
  isSSO!: boolean;

  /** Set for new accounts and temporary passwords: the next sign-in must choose a new password. */
  @Column({ type: 'boolean', default: false })
  mustChangePassword!: boolean;

  @Column({ type: DATE_TYPE, nullable: true })
  passwordChangedAt!: Date | null;

  /**
   * When the owner reported a sign-in as not theirs ("This wasn't me"): until a new password is set (the e-mailed
   * reset, or the profile's change from a session opened otherwise), the password matches nothing.
   */
  @Column({ type: DATE_TYPE, nullable: true })
  passwordCompromisedAt!: Date | null;

  /** Kept beside the session history so the user list can sort and show it without a join. */
  @Column({ type: DATE_TYPE, nullable: true })
  lastLoginAt!: Date | null;

  /** The organisation's directory's id for the account (SCIM externalId), as the directory last sent it. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  externalId!: string | null;

  /** The e-mail as the directory spells it (SCIM userName); `email` is its lower-cased form. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  directoryUserName!: string | null;

  /** 'scim' when the organisation's directory manages the account (its name, job title, department, access). */
  @Column({ type: 'varchar', length: 20, nullable: true })
  managedBy!: string | null;

  /** When the person was erased (docs/privacy.md): the row is a tombstone that never signs in again. */
  @Column({ type: DATE_TYPE, nullable: true })
  erasedAt!: Date | null;

  @CreateDateColumn()
  createdAt!: Date;

  @UpdateDateColumn()
  updatedAt!: Date;

  get roles(): Role[] {
    return effectiveRoles(this.roleId, this.isAdministrator);
  }
}

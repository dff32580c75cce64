import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * An invitation to join an organisation with a role chosen up front. Its link's token is stored as its SHA-256
 * hash only; resending replaces the hash, so an older link stops working. Its status follows from the dates:
 * withdrawn (revokedAt), accepted (acceptedAt), expired (expiresAt passed), else pending.
 */
@Entity('invitations')
@Index('IDX_invitations_org_email', ['organisationId', 'email'])
export class Invitation {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  @Column({ type: 'varchar', length: 100 })
  email!: string;

  @Column({ type: 'integer' })
  roleId!: number;

  @Column({ type: 'boolean', default: false })
  isAdministrator!: boolean;

  @Index('IDX_invitations_token', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  /** The validity chosen when inviting; a resend gives the new link as long again. */
  @Column({ type: 'integer' })
  expiresInDays!: number;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;

  @CreateDateColumn()
  createdAt!: Date;

  /** Who invited or last resent: the account (gone if deleted since) and the name the invitation page shows. */
  @Column({ type: 'integer', nullable: true })
  invitedById!: number | null;

  @Column({ type: 'varchar', length: 201 })
  invitedByName!: string;

  @Column({ type: DATE_TYPE, nullable: true })
  acceptedAt!: Date | null;

  /** The account the acceptance created. */
  @Column({ type: 'integer', nullable: true })
  acceptedUserId!: number | null;

  @Column({ type: DATE_TYPE, nullable: true })
  revokedAt!: Date | null;
}

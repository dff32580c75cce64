import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * A domain an organisation claims, and once proved through DNS, verifies. Several organisations may claim
 * a domain; `verifiedDomain` is set only on verification and is unique, so the database itself keeps a
 * domain verified by at most one organisation, whatever requests race.
 */
@Entity('organisation_domains')
@Index('IDX_organisation_domains_org_domain', ['organisationId', 'domain'], { unique: true })
@Index('IDX_organisation_domains_verified', ['verifiedDomain'], { unique: true })
export class OrganisationDomain {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  @Column({ type: 'varchar', length: 253 })
  domain!: string;

  /** The random value the TXT record must carry (not a secret: it is published in DNS). */
  @Column({ type: 'varchar', length: 100 })
  txtValue!: string;

  /** The domain once verified, else null (NULLs do not collide in the unique index). */
  @Column({ type: 'varchar', length: 253, nullable: true })
  verifiedDomain!: string | null;

  @Column({ type: DATE_TYPE, nullable: true })
  verifiedAt!: Date | null;

  /** When the record of a verified domain was last looked up again (null: not since it was verified). */
  @Column({ type: DATE_TYPE, nullable: true })
  checkedAt!: Date | null;

  /** Since when a verified domain's record has been missing; after the grace period it is no longer verified. */
  @Column({ type: DATE_TYPE, nullable: true })
  recordMissingSince!: Date | null;

  @CreateDateColumn()
  createdAt!: Date;
}

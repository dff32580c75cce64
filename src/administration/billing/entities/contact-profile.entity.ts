import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** PRIMARY: the organisation's primary contact; BILLING: its billing contact (spec 001 §2.11). */
export type ContactKind = 'PRIMARY' | 'BILLING';

/** Spec 001 §3 'Contact or billing profile': one of each kind per organisation. */
@Entity('contact_profiles')
@Index('IDX_contact_profiles_org_kind', ['organisationId', 'kind'], { unique: true })
export class ContactProfileEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  @Column({ type: 'varchar', length: 10 })
  kind!: ContactKind;

  @Column({ type: 'varchar', length: 100, default: '' })
  fullName!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  jobTitle!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  department!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  basedIn!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  email!: string;

  @Column({ type: 'varchar', length: 40, default: '' })
  mobile!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @UpdateDateColumn()
  updatedAt!: Date;
}

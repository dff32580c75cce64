import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A named group of users of one organisation. Names are unique within it (case-insensitively, by nameKey). */
@Entity('user_groups')
@Index('IDX_user_groups_org_name', ['organisationId', 'nameKey'], { unique: true })
@Index('IDX_user_groups_org_external', ['organisationId', 'externalId'])
export class UserGroup {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** The name lower-cased: what uniqueness is checked on. */
  @Column({ type: 'varchar', length: 100 })
  nameKey!: string;

  /** The organisation's directory's id for the group (SCIM externalId). */
  @Column({ type: 'varchar', length: 200, nullable: true })
  externalId!: string | null;

  /** 'scim' when the organisation's directory manages the group. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  managedBy!: string | null;

  @CreateDateColumn()
  createdAt!: Date;
}

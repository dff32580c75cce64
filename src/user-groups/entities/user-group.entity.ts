import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A named group of users of one organisation. Names are unique within it (case-insensitively, by nameKey). */
@Entity('user_groups')
@Index('IDX_user_groups_org_name', ['organisationId', 'nameKey'], { unique: true })
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

  @CreateDateColumn()
  createdAt!: Date;
}

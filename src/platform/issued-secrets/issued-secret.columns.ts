import { Column, CreateDateColumn, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../database/column-types';
import { Organisation } from '../database/entities/organisation.entity';

/**
 * The columns every secret an organisation issues to its own systems has (an API key, a provisioning token): its
 * organisation, a name, who created it and when, its latest use. Each entity adds its hash column (unique) and its
 * indexes by name. The secret itself is kept as its SHA-256 only (32 random bytes: a plain hash is enough); revoking
 * deletes the row, so the next call with it finds nothing on any instance.
 */
export abstract class IssuedSecretColumns {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisationId' })
  organisation?: Organisation;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  @CreateDateColumn()
  createdAt!: Date;

  /** The e-mail of the account that created it. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  createdBy!: string | null;

  /** The latest use, written at most once a minute. */
  @Column({ type: DATE_TYPE, nullable: true })
  lastUsedAt!: Date | null;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { BINARY_TYPE } from '../../database/column-types';

/** A file every instance must be able to serve (logos, reports), kept in the database. */
@Entity('stored_files')
export class StoredFile {
  /** `<area>/<…>/<name>`, e.g. `logos/<32 hex>.png` or `reports/<organisationId>/<name>`. */
  @PrimaryColumn({ type: 'varchar', length: 300 })
  key!: string;

  @Column({ type: 'varchar', length: 100 })
  contentType!: string;

  @Column({ type: 'integer' })
  size!: number;

  @Column({ type: BINARY_TYPE })
  data!: Buffer;

  @CreateDateColumn()
  createdAt!: Date;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/** One upload URL handed out: its nonce makes the URL good for one PUT only. */
@Entity('logo_uploads')
export class LogoUpload {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  nonce!: string;

  @Column({ type: 'integer' })
  organisationId!: number;

  /** The file name under DATA_DIR/logos (random, so the served URL cannot be guessed). */
  @Column({ type: 'varchar', length: 100, unique: true })
  storedName!: string;

  @Column({ type: DATE_TYPE })
  expiresAt!: Date;

  @Column({ type: DATE_TYPE, nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn()
  createdAt!: Date;
}

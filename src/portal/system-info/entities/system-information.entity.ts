import { Column, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/** An event recorded by a back-end system or by this application (spec 001 §3 'System information entry'). */
@Entity('system_information')
@Index('IDX_system_information_type_start', ['eventType', 'startDateTime'])
export class SystemInformation {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 50 })
  eventType!: string;

  @Column({ type: 'varchar', length: 20 })
  status!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  version!: string;

  @Column({ type: 'varchar', length: 2000, default: '' })
  message!: string;

  @Column({ type: DATE_TYPE })
  startDateTime!: Date;

  @UpdateDateColumn()
  modified!: Date;
}

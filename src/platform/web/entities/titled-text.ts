import { Column, CreateDateColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The columns of a titled text someone wrote (an announcement, a piece of feedback): a title of at most 200
 * characters (SHELL_LIMITS), the content, and when it was written. Not an entity: each table extends it.
 */
export abstract class TitledText {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 200 })
  title!: string;

  @Column({ type: 'text' })
  content!: string;

  @CreateDateColumn()
  createdAt!: Date;
}

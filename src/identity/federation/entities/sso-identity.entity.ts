import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Which account a provider's subject signed in as: after the first sign-in the subject, not the e-mail the
 * provider asserts, decides the account, so a renamed mailbox keeps its account.
 */
@Entity('sso_identities')
@Index('IDX_sso_identities_subject', ['connectionId', 'subject'], { unique: true })
@Index('IDX_sso_identities_user', ['userId'])
export class SsoIdentity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  connectionId!: number;

  @Column({ type: 'varchar', length: 300 })
  subject!: string;

  @Column({ type: 'integer' })
  userId!: number;

  @CreateDateColumn()
  createdAt!: Date;
}

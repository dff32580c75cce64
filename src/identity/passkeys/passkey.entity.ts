import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DATE_TYPE } from '../../platform/database/column-types';
import { User } from '../../platform/database/entities/user.entity';

/** A registered WebAuthn credential: its public key, signature counter and the name its owner gave it. */
@Entity('passkeys')
export class Passkey {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('IDX_passkeys_user')
  @Column({ type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userId' })
  user?: User;

  /** The credential id, base64url; unique across the product (a discoverable sign-in finds the account by it). */
  @Column({ type: 'varchar', length: 1400, unique: true })
  credentialId!: string;

  /** The COSE public key, base64url. */
  @Column({ type: 'text' })
  publicKey!: string;

  /** The authenticator's signature counter (0 for authenticators that keep none, e.g. synced passkeys). */
  @Column({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  counter!: number;

  /** Transports the browser reported at registration, JSON. */
  @Column({ type: 'varchar', length: 200, default: '[]' })
  transports!: string;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  /** 'singleDevice' or 'multiDevice' (synced), and whether it is backed up, as the authenticator says. */
  @Column({ type: 'varchar', length: 20 })
  deviceType!: string;

  @Column({ type: 'boolean', default: false })
  backedUp!: boolean;

  @CreateDateColumn({ type: DATE_TYPE })
  createdAt!: Date;

  @Column({ type: DATE_TYPE, nullable: true })
  lastUsedAt!: Date | null;
}

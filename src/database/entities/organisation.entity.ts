import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type AccountType = 'ORGANIZATION' | 'INDIVIDUAL';

/** An organisation (the specification's master account). Everything it owns is visible only inside it. */
@Entity('organisations')
export class Organisation {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 25, unique: true })
  code!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 20, default: 'ORGANIZATION' })
  accountType!: AccountType;

  /** The vendor's own organisation, home of the E-Support accounts. */
  @Column({ type: 'boolean', default: false })
  isVendor!: boolean;

  @Column({ type: 'integer', default: 1 })
  allowedUsersNumber!: number;

  @Column({ type: 'integer', default: 1 })
  maxConcurrentUsers!: number;

  @Column({ type: 'integer', default: 0 })
  maxPortfolios!: number;

  /** Application entitlements, e.g. ['TAX_MANAGER', 'CA_VIEWER']. */
  @Column({ type: 'simple-json', default: '[]' })
  applications!: string[];

  @Column({ type: 'boolean', default: false })
  isSSOEnabled!: boolean;

  @Column({ type: 'varchar', length: 500, nullable: true })
  ssoLogoutUrl!: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  logoPath!: string | null;

  @CreateDateColumn()
  createdAt!: Date;

  @UpdateDateColumn()
  updatedAt!: Date;
}

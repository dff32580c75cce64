import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../database/column-types';

/**
 * Which portal session a provider session (the browser's session at /oidc) was opened from. When the portal session
 * ends, the provider session's grants are revoked and its applications told (back-channel logout); `pending` holds
 * the applications still to tell, retried until they answer.
 */
@Entity('oidc_session_links')
@Index('IDX_oidc_session_links_next', ['loggedOutAt', 'nextAttemptAt'])
export class OidcSessionLink {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  opSessionUid!: string;

  @Index('IDX_oidc_session_links_session')
  @Column({ type: 'varchar', length: 36 })
  portalSessionId!: string;

  @Column({ type: 'integer' })
  userId!: number;

  @CreateDateColumn()
  createdAt!: Date;

  /** When the portal session's end was handled (grants revoked, logout tokens sent or queued). */
  @Column({ type: DATE_TYPE, nullable: true })
  loggedOutAt!: Date | null;

  /** JSON: the logout tokens still to deliver, `[{clientId, uri, sub, sid}]`. */
  @Column({ type: 'text', nullable: true })
  pending!: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: DATE_TYPE, nullable: true })
  nextAttemptAt!: Date | null;
}

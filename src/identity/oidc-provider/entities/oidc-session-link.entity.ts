import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

/**
 * The portal session a grant (an application's sign-in, with every code and token it issues) was made in. A token is
 * honoured only while that portal session is open; when it ends, the grant is revoked and the application told
 * (back-channel logout). A grant is never carried over to another portal session. `pending` holds the logout token
 * still to deliver, retried until the application answers.
 */
@Entity('oidc_session_links')
@Index('IDX_oidc_session_links_next', ['loggedOutAt', 'nextAttemptAt'])
export class OidcSessionLink {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  grantId!: string;

  @Index('IDX_oidc_session_links_session')
  @Column({ type: 'varchar', length: 36 })
  portalSessionId!: string;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'varchar', length: 64 })
  clientId!: string;

  /** The provider's browser session that holds the grant, and the `sid` its ID tokens carry for the application. */
  @Index('IDX_oidc_session_links_op_session')
  @Column({ type: 'varchar', length: 64, nullable: true })
  opSessionUid!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  sid!: string | null;

  @CreateDateColumn()
  createdAt!: Date;

  /** When the portal session's end was handled (the grant revoked, the logout token sent or queued). */
  @Column({ type: DATE_TYPE, nullable: true })
  loggedOutAt!: Date | null;

  /** JSON: the logout token still to deliver, `{clientId, sub, sid}`. */
  @Column({ type: 'text', nullable: true })
  pending!: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: DATE_TYPE, nullable: true })
  nextAttemptAt!: Date | null;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../../platform/database/column-types';

export type SessionEndReason =
  | 'logout'
  | 'force-logoff'
  | 'disabled'
  | 'password-changed'
  | 'mfa-changed'
  | 'refresh-reuse'
  | 'expired'
  | 'sso-logout'
  | 'not-me'
  | 'idle'
  | 'policy-max-age'
  | 'sso-required'
  | 'support-ended';

/** One sign-in: its id sits in every access token, so ending it ends the tokens at once. */
@Entity('sessions')
@Index('IDX_sessions_user', ['userId', 'endedAt'])
@Index('IDX_sessions_org', ['organisationId', 'endedAt'])
// The users online: open sessions by organisation and refresh time (migration OnlineSessionsIndex).
@Index('IDX_sessions_org_online', ['organisationId', 'lastRefreshAt', 'userId', 'endedAt'], {
  where: '"endedAt" IS NULL',
})
// A user's online sessions: the concurrent-users check looks into each account's (migration UserOnlineSessionsIndex).
@Index('IDX_sessions_user_online', ['userId', 'lastRefreshAt', 'endedAt'], { where: '"endedAt" IS NULL' })
export class Session {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer' })
  organisationId!: number;

  /** The sign-in time. */
  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: DATE_TYPE })
  lastRefreshAt!: Date;

  /** The last re-authentication (POST /auth/step-up); null: the sign-in (createdAt) is the last one. */
  @Column({ type: DATE_TYPE, nullable: true })
  authenticatedAt!: Date | null;

  /**
   * The last call, to the minute, recorded only while the organisation has an idle limit (the one write it costs is
   * made at most once a minute per session); null: no call recorded since the sign-in or the refresh.
   */
  @Column({ type: DATE_TYPE, nullable: true })
  lastUsedAt!: Date | null;

  @Column({ type: DATE_TYPE, nullable: true })
  endedAt!: Date | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  endReason!: SessionEndReason | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  userAgent!: string | null;

  /** The factors the session was opened with: one of SESSION_METHODS (src/shared/administration/insights.ts). */
  @Column({ type: 'varchar', length: 20, default: 'password' })
  method!: string;

  /** Set on a session an E-Support account started as the member (docs/support-access.md): its request. */
  @Column({ type: 'integer', nullable: true })
  supportAccessId!: number | null;
}

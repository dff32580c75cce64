import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * What a portal session opened through a connection needs for single logout: the provider's subject and
 * session id (back-channel logout names them), and the ID token (the id_token_hint of RP-initiated logout),
 * sealed with ENCRYPTION_KEY, or SAML's NameID and SessionIndex.
 */
@Entity('sso_sessions')
@Index('IDX_sso_sessions_subject', ['connectionId', 'subject'])
export class SsoSession {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  sessionId!: string;

  @Column({ type: 'integer' })
  connectionId!: number;

  @Column({ type: 'varchar', length: 300 })
  subject!: string;

  /** OIDC `sid`, or SAML SessionIndex. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  providerSessionId!: string | null;

  @Column({ type: 'text', nullable: true })
  idToken!: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  nameIdFormat!: string | null;
}

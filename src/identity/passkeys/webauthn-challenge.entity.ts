import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DATE_TYPE } from '../../platform/database/column-types';

/** What a WebAuthn challenge was issued for; a response is accepted only for the flow its challenge belongs to. */
export type WebAuthnPurpose = 'registration' | 'mfa' | 'login';

/**
 * An outstanding WebAuthn challenge, kept in the database so that any instance can verify the answer.
 * Single-use: verifying deletes the row, and only the request whose delete removed it goes on.
 */
@Entity('webauthn_challenges')
export class WebAuthnChallenge {
  /** The challenge itself, base64url, as it comes back in the client data. */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  challenge!: string;

  @Column({ type: 'varchar', length: 20 })
  purpose!: WebAuthnPurpose;

  /** The account it was issued to; null for a discoverable (password-less) sign-in, where nobody is known yet. */
  @Column({ type: 'integer', nullable: true })
  userId!: number | null;

  @Index('IDX_webauthn_challenges_expires')
  @Column({ type: DATE_TYPE })
  expiresAt!: Date;
}

import { maySignIn } from '../credentials/may-sign-in';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { createHmac } from 'node:crypto';
import { EntityManager, LessThan, MoreThanOrEqual, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { SessionsService } from '../sessions';
import { TrustedDevicesService } from '../trusted-devices';
import { PRODUCT_NAME } from '../../shared/messages';
import { PASSKEY_ERROR_CODES, PASSKEY_LIMITS, PASSKEY_MESSAGES, PasskeyItem } from '../../shared/identity/passkeys';
import { User } from '../../platform/database/entities/user.entity';
import { isUniqueViolation } from '../../platform/database/unique-violation';
import { Passkey } from './passkey.entity';
import { WebAuthnChallenge, WebAuthnPurpose } from './webauthn-challenge.entity';

/** The outcome of checking a passkey assertion: the account it proves, or why not (with the account when known). */
export type AssertionResult =
  { ok: true; user: User; passkey: Passkey } | { ok: false; user: User | null; error: AppException };

const invalid = (message: string = PASSKEY_MESSAGES.NOT_VERIFIED) =>
  AppException.unauthorized(message, PASSKEY_ERROR_CODES.PASSKEY_INVALID);
const challengeInvalid = () =>
  AppException.unauthorized(PASSKEY_MESSAGES.CHALLENGE_INVALID, PASSKEY_ERROR_CODES.PASSKEY_CHALLENGE_INVALID);

/**
 * Passkeys with @simplewebauthn/server: registration from the profile, and assertions for the MFA
 * step and for a password-less sign-in. The relying party is PUBLIC_URL (its host name is the RP id, its origin
 * the only accepted origin). Challenges live in the database (any instance verifies), last five minutes, serve
 * one flow (registration, mfa or login) and one account, and are consumed by a delete that only one request wins.
 */
@Injectable()
export class PasskeysService {
  private readonly logger = new Logger('Passkeys');

  constructor(
    @InjectRepository(Passkey) private readonly passkeys: Repository<Passkey>,
    @InjectRepository(WebAuthnChallenge) private readonly challenges: Repository<WebAuthnChallenge>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly trustedDevices: TrustedDevicesService,
  ) {}

  /** The relying party: RP id and origin from PUBLIC_URL. */
  get relyingParty(): { id: string; origin: string; name: string } {
    const url = new URL(this.config.publicUrl);
    return { id: url.hostname, origin: url.origin, name: PRODUCT_NAME };
  }

  /** The WebAuthn user handle of an account: stable, opaque (no e-mail or row id leaves the server). */
  userHandle(userId: number): Uint8Array<ArrayBuffer> {
    return new Uint8Array(createHmac('sha256', this.config.encryptionKey).update(`webauthn-user:${userId}`).digest());
  }

  private async storeChallenge(challenge: string, purpose: WebAuthnPurpose, userId: number | null): Promise<void> {
    const now = new Date();
    await this.challenges.manager.transaction(async (tx) => {
      // Expired challenges of anyone go with each new one, so the table stays small.
      await tx.getRepository(WebAuthnChallenge).delete({ expiresAt: LessThan(now) });
      await tx.getRepository(WebAuthnChallenge).insert({
        challenge,
        purpose,
        userId,
        expiresAt: new Date(now.getTime() + PASSKEY_LIMITS.CHALLENGE_SECONDS * 1000),
      });
    });
  }

  /**
   * Takes the challenge of a response out of the store: true for the one request that removed a live
   * challenge of this flow and account; false for an unknown, expired, used or other flow's challenge.
   */
  private async consumeChallenge(
    clientDataJSON: string,
    purpose: WebAuthnPurpose,
    userId: number | null,
  ): Promise<string | null> {
    let challenge: unknown;
    try {
      challenge = (JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown }).challenge;
    } catch {
      return null;
    }
    if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 100) return null;
    const stored = await this.challenges.findOneBy({ challenge });
    if (!stored || stored.purpose !== purpose || stored.userId !== userId) return null;
    // The claim: of two requests with one challenge, only the one whose delete removed the row goes on.
    const claimed = await this.challenges.delete({ challenge, purpose });
    if (!claimed.affected) return null;
    return stored.expiresAt > new Date() ? challenge : null;
  }

  private allowList(keys: Passkey[]) {
    return keys.map((k) => ({ id: k.credentialId, transports: JSON.parse(k.transports) as string[] }));
  }

  /** POST /mfa/passkeys/registration-options: options for navigator.credentials.create, for the caller's account. */
  async registrationOptions(caller: AuthUser): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const user = await this.users.findOneByOrFail({ id: caller.id });
    const existing = await this.passkeys.findBy({ userId: user.id });
    if (existing.length >= PASSKEY_LIMITS.PER_USER_MAX) throw AppException.badRequest(PASSKEY_MESSAGES.TOO_MANY);
    const rp = this.relyingParty;
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
      userID: this.userHandle(user.id),
      attestationType: 'none',
      excludeCredentials: this.allowList(existing),
      // Discoverable (resident) credentials, so the passkey can also sign in without the e-mail and password.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      timeout: PASSKEY_LIMITS.CHALLENGE_SECONDS * 1000,
    });
    await this.storeChallenge(options.challenge, 'registration', user.id);
    return options;
  }

  /** POST /mfa/passkeys: verifies the registration answer and keeps the passkey; the account's other sessions end. */
  async register(
    caller: AuthUser,
    name: string,
    response: RegistrationResponseJSON,
    client?: RequestContext,
  ): Promise<PasskeyItem> {
    const user = await this.users.findOneByOrFail({ id: caller.id });
    const challenge = await this.consumeChallenge(response.response.clientDataJSON, 'registration', user.id);
    if (!challenge) throw challengeInvalid();
    const rp = this.relyingParty;
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        // The options ask for verification as 'preferred': the library's advice is then not to require it.
        requireUserVerification: false,
      });
    } catch (e) {
      this.logger.warn(`A passkey registration of user ${user.id} was refused: ${(e as Error).message}`);
      throw AppException.badRequest(PASSKEY_MESSAGES.NOT_VERIFIED, PASSKEY_ERROR_CODES.PASSKEY_INVALID);
    }
    if (!verification.verified)
      throw AppException.badRequest(PASSKEY_MESSAGES.NOT_VERIFIED, PASSKEY_ERROR_CODES.PASSKEY_INVALID);
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    try {
      const saved = await this.passkeys.manager.transaction(async (tx) => {
        const count = await tx.getRepository(Passkey).countBy({ userId: user.id });
        if (count >= PASSKEY_LIMITS.PER_USER_MAX) throw AppException.badRequest(PASSKEY_MESSAGES.TOO_MANY);
        const row = await tx.getRepository(Passkey).save(
          tx.getRepository(Passkey).create({
            userId: user.id,
            credentialId: credential.id,
            publicKey: isoBase64URL.fromBuffer(credential.publicKey),
            counter: credential.counter,
            transports: JSON.stringify((credential.transports ?? []).slice(0, 8)),
            name,
            deviceType: credentialDeviceType,
            backedUp: credentialBackedUp,
            lastUsedAt: null,
          }),
        );
        await tx.getRepository(User).update({ id: user.id }, { hasPasskey: true });
        // An MFA change (docs/product-rules.md §3): the account's other sessions end; this one, which just proved itself, stays.
        await this.sessions.endAllForUsers([user.id], 'mfa-changed', caller.sessionId, tx);
        // An MFA change revokes the trusted devices too.
        await this.trustedDevices.revokeAllIn(tx, user.id);
        await this.audit.record(tx, {
          type: 'PASSKEY_ADDED',
          actor: user,
          target: user,
          client,
          summary: `Passkey '${name}' added`,
        });
        return row;
      });
      return toItem(saved);
    } catch (e) {
      if (isUniqueViolation(e)) throw AppException.conflict(PASSKEY_MESSAGES.ALREADY_REGISTERED);
      throw e;
    }
  }

  /** GET /mfa/passkeys: the caller's passkeys, oldest first. */
  async list(userId: number): Promise<PasskeyItem[]> {
    const rows = await this.passkeys.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toItem);
  }

  /** PATCH /mfa/passkeys/:id: a new name for one of the caller's passkeys. */
  async rename(caller: AuthUser, id: number, name: string): Promise<PasskeyItem> {
    const row = await this.passkeys.findOneBy({ id, userId: caller.id });
    if (!row) throw AppException.notFound(PASSKEY_MESSAGES.NOT_FOUND);
    await this.passkeys.update({ id: row.id }, { name });
    return toItem({ ...row, name });
  }

  /** DELETE /mfa/passkeys/:id: removes one of the caller's passkeys; the account's other sessions end. */
  async remove(caller: AuthUser, id: number, client?: RequestContext): Promise<{ success: true }> {
    const user = await this.users.findOneByOrFail({ id: caller.id });
    await this.passkeys.manager.transaction(async (tx) => {
      const row = await tx.getRepository(Passkey).findOneBy({ id, userId: user.id });
      if (!row) throw AppException.notFound(PASSKEY_MESSAGES.NOT_FOUND);
      const removed = await tx.getRepository(Passkey).delete({ id: row.id, userId: user.id });
      if (!removed.affected) throw AppException.notFound(PASSKEY_MESSAGES.NOT_FOUND);
      const left = await tx.getRepository(Passkey).countBy({ userId: user.id });
      await tx.getRepository(User).update({ id: user.id }, { hasPasskey: left > 0 });
      await this.sessions.endAllForUsers([user.id], 'mfa-changed', caller.sessionId, tx);
      // An MFA change revokes the trusted devices too.
      await this.trustedDevices.revokeAllIn(tx, user.id);
      await this.audit.record(tx, {
        type: 'PASSKEY_REMOVED',
        actor: user,
        target: user,
        client,
        summary: `Passkey '${row.name}' removed`,
      });
    });
    return { success: true };
  }

  /**
   * POST /auth/passkey/options: options for navigator.credentials.get. With `userId` (the MFA step, from its
   * challenge token), the account's passkeys are listed; without, any discoverable passkey of this site may answer.
   */
  async authenticationOptions(userId: number | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
    let allowCredentials: Array<{ id: string; transports?: string[] }> | undefined;
    if (userId !== null) {
      const user = await this.users.findOneBy({ id: userId });
      if (!user || !maySignIn(user))
        throw AppException.unauthorized('The sign-in challenge is not valid. Please log in again.');
      const keys = await this.passkeys.findBy({ userId });
      if (keys.length === 0)
        throw AppException.badRequest('This account has no passkey. Use the code from your authenticator app.');
      allowCredentials = this.allowList(keys);
    }
    const options = await generateAuthenticationOptions({
      rpID: this.relyingParty.id,
      ...(allowCredentials ? { allowCredentials } : {}),
      // A password-less sign-in is both factors at once: the authenticator must verify its user (PIN, biometrics).
      userVerification: userId === null ? 'required' : 'preferred',
      timeout: PASSKEY_LIMITS.CHALLENGE_SECONDS * 1000,
    });
    await this.storeChallenge(options.challenge, userId === null ? 'login' : 'mfa', userId);
    return options;
  }

  /**
   * Checks an assertion. `expectedUser` set: the MFA step of that account (its passkeys only, user verification
   * preferred). Null: a password-less sign-in (any registered passkey, user verification required). The counter
   * must grow (the library refuses a step back; the stored one moves on only if still lower, so of two
   * assertions with one counter value only one passes).
   */
  async verifyAssertion(response: AuthenticationResponseJSON, expectedUser: User | null): Promise<AssertionResult> {
    const purpose: WebAuthnPurpose = expectedUser ? 'mfa' : 'login';
    const challenge = await this.consumeChallenge(response.response.clientDataJSON, purpose, expectedUser?.id ?? null);
    if (!challenge) return { ok: false, user: expectedUser, error: challengeInvalid() };
    if (response.id !== response.rawId) return { ok: false, user: expectedUser, error: invalid() };
    const passkey = await this.passkeys.findOneBy({ credentialId: response.id });
    if (!passkey)
      return {
        ok: false,
        user: expectedUser,
        error: invalid(expectedUser ? PASSKEY_MESSAGES.ANOTHER_ACCOUNT : PASSKEY_MESSAGES.NOT_REGISTERED),
      };
    if (expectedUser && passkey.userId !== expectedUser.id)
      return { ok: false, user: expectedUser, error: invalid(PASSKEY_MESSAGES.ANOTHER_ACCOUNT) };
    const user = expectedUser ?? (await this.users.findOneBy({ id: passkey.userId }));
    if (!user) return { ok: false, user: null, error: invalid(PASSKEY_MESSAGES.NOT_REGISTERED) };
    const handle = response.response.userHandle;
    if (handle && handle !== isoBase64URL.fromBuffer(this.userHandle(user.id)))
      return { ok: false, user, error: invalid() };

    const rp = this.relyingParty;
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: passkey.credentialId,
          publicKey: isoBase64URL.toBuffer(passkey.publicKey),
          counter: passkey.counter,
          transports: JSON.parse(passkey.transports) as string[],
        },
        requireUserVerification: purpose === 'login',
      });
    } catch (e) {
      this.logger.warn(`A passkey assertion for user ${user.id} was refused: ${(e as Error).message}`);
      return { ok: false, user, error: invalid() };
    }
    if (!verification.verified) return { ok: false, user, error: invalid() };
    const { newCounter } = verification.authenticationInfo;
    const moved = await this.passkeys
      .createQueryBuilder()
      .update(Passkey)
      .set({ counter: newCounter, lastUsedAt: new Date() })
      .where('id = :id AND (counter < :counter OR (counter = 0 AND :counter = 0))', {
        id: passkey.id,
        counter: newCounter,
      })
      .execute();
    if (!moved.affected) return { ok: false, user, error: invalid() };
    return { ok: true, user, passkey };
  }
}

/**
 * Removes inside `tx` the passkeys an account registered at or after `since`, keeping hasPasskey in step; how many
 * went. SQLite keeps their registration to the second: one registered in the same second as `since` counts as since.
 */
export async function removePasskeysAddedSince(tx: EntityManager, userId: number, since: Date): Promise<number> {
  const from = new Date(Math.floor(since.getTime() / 1000) * 1000 - 1);
  const removed = await tx.getRepository(Passkey).delete({ userId, createdAt: MoreThanOrEqual(from) });
  const left = await tx.getRepository(Passkey).countBy({ userId });
  await tx.getRepository(User).update({ id: userId }, { hasPasskey: left > 0 });
  return removed.affected ?? 0;
}

/** Removes every passkey of an account inside `tx` (an administrator's 'Disable User MFA'); how many went. */
export async function removeAllPasskeys(tx: EntityManager, userId: number): Promise<number> {
  const removed = await tx.getRepository(Passkey).delete({ userId });
  await tx.getRepository(User).update({ id: userId }, { hasPasskey: false });
  return removed.affected ?? 0;
}

function toItem(p: Passkey): PasskeyItem {
  return {
    id: p.id,
    name: p.name,
    createdAt: new Date(p.createdAt).toISOString(),
    lastUsedAt: p.lastUsedAt ? new Date(p.lastUsedAt).toISOString() : null,
    deviceType: p.deviceType,
    backedUp: Boolean(p.backedUp),
  };
}

import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CookieOptions } from 'express';
import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { hmacKey, randomToken, sha256 } from '../../platform/crypto/secrets';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { ClientInfo } from '../../platform/web/request-context';
import { User } from '../../platform/database/entities/user.entity';
import { RECOVERY_MESSAGES, TrustedDeviceItem } from '../../shared/identity/mfa-recovery';
import { deviceLabel } from '../../shared/identity/device-label';
import { TrustedDevice } from './entities/trusted-device.entity';

/** Sent only with sign-in calls: the browser keeps it and nothing else reads it. */
export const TRUSTED_DEVICE_COOKIE_PATH = '/auth/login';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A cookie for the login answer to set. */
export interface DeviceCookie {
  name: string;
  value: string;
  options: CookieOptions;
}

/**
 * "Don't ask again on this device". The cookie is `<token>.<HMAC(userId.token)>` under a name
 * derived from the account (several accounts can trust one browser); the server keeps SHA-256 of the token,
 * so a device is honoured only while its row exists, belongs to that account and has not expired.
 */
@Injectable()
export class TrustedDevicesService {
  private readonly key: KeyObject;

  constructor(
    @InjectRepository(TrustedDevice) private readonly devices: Repository<TrustedDevice>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {
    this.key = hmacKey(createHmac('sha256', config.encryptionKey).update('mfa-trusted-device').digest());
  }

  /** Days the option lasts; 0 means trusted devices are off. */
  get rememberDays(): number {
    return this.config.mfaRememberDays;
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  cookieName(userId: number): string {
    return `mfa_device_${this.mac(`name:${userId}`).slice(0, 16)}`;
  }

  /** Whether the request carries a valid, unrevoked device cookie of this account; marks the device used. */
  async recognise(user: User, cookies: Record<string, string> | undefined): Promise<boolean> {
    if (this.rememberDays === 0) return false;
    const raw = cookies?.[this.cookieName(user.id)];
    if (typeof raw !== 'string' || raw.length > 200) return false;
    const [token, signature] = raw.split('.');
    if (!token || !signature) return false;
    const expected = Buffer.from(this.mac(`${user.id}.${token}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    const device = await this.devices.findOneBy({ tokenHash: sha256(token), userId: user.id });
    if (!device || device.expiresAt <= new Date()) return false;
    await this.devices.update({ id: device.id }, { lastUsedAt: new Date() });
    return true;
  }

  /** After a successful MFA step with the box ticked: a new trusted device and its cookie. */
  async issue(user: User, client: ClientInfo): Promise<DeviceCookie | undefined> {
    if (this.rememberDays === 0) return undefined;
    const token = randomToken();
    const maxAge = this.rememberDays * DAY_MS;
    const label = deviceLabel(client.userAgent);
    await this.devices.manager.transaction(async (tx) => {
      await tx.getRepository(TrustedDevice).insert({
        userId: user.id,
        tokenHash: sha256(token),
        label,
        lastUsedAt: null,
        expiresAt: new Date(Date.now() + maxAge),
      });
      await this.audit.record(tx, {
        type: 'TRUSTED_DEVICE_ADDED',
        actor: user,
        target: user,
        client,
        summary: `Trusted device added: ${label}`,
      });
    });
    return {
      name: this.cookieName(user.id),
      value: `${token}.${this.mac(`${user.id}.${token}`)}`,
      options: {
        httpOnly: true,
        sameSite: 'strict',
        secure: this.config.publicUrl.startsWith('https:'),
        path: TRUSTED_DEVICE_COOKIE_PATH,
        maxAge,
      },
    };
  }

  async list(userId: number): Promise<TrustedDeviceItem[]> {
    const now = new Date();
    const rows = await this.devices.find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
    return rows
      .filter((d) => d.expiresAt > now)
      .map((d) => ({
        id: d.id,
        label: d.label,
        createdAt: d.createdAt.toISOString(),
        lastUsedAt: d.lastUsedAt?.toISOString() ?? null,
        expiresAt: d.expiresAt.toISOString(),
      }));
  }

  /** "Revoke": only the caller's own device; another's id is not found, and nothing changes. */
  async revoke(caller: AuthUser, id: number, client?: RequestContext): Promise<{ success: true }> {
    await this.devices.manager.transaction(async (tx) => {
      const device = await tx.getRepository(TrustedDevice).findOneBy({ id, userId: caller.id });
      if (!device) throw AppException.notFound(RECOVERY_MESSAGES.DEVICE_NOT_FOUND);
      await tx.getRepository(TrustedDevice).delete({ id: device.id });
      await this.audit.record(tx, {
        type: 'TRUSTED_DEVICE_REVOKED',
        actor: caller,
        target: caller,
        client,
        summary: `Trusted device revoked: ${device.label}`,
      });
    });
    return { success: true };
  }

  /** "Revoke all". */
  async revokeAll(caller: AuthUser, client?: RequestContext): Promise<{ success: true; revoked: number }> {
    const revoked = await this.devices.manager.transaction(async (tx) => {
      const n = await this.revokeAllIn(tx, caller.id);
      if (n > 0)
        await this.audit.record(tx, {
          type: 'TRUSTED_DEVICE_REVOKED',
          actor: caller,
          target: caller,
          client,
          summary: `All trusted devices revoked (${n})`,
        });
      return n;
    });
    return { success: true, revoked };
  }

  /** Inside `tx`: every trusted device of the user is gone; answers how many there were. */
  async revokeAllIn(tx: EntityManager, userId: number): Promise<number> {
    const result = await tx.getRepository(TrustedDevice).delete({ userId });
    return result.affected ?? 0;
  }
}

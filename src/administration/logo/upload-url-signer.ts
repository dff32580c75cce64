import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import { hmacKey } from '../../platform/crypto/secrets';

/** What an upload URL is bound to. */
export interface UploadGrant {
  /** Single-use nonce, stored in logo_uploads. */
  n: string;
  /** Organisation id. */
  o: number;
  /** File name, size and type declared when the URL was asked for. */
  f: string;
  s: number;
  t: string;
  /** Stored file name. */
  p: string;
  /** Expiry, seconds since the epoch. */
  e: number;
}

/** HMAC-SHA256 over the grant with the application secret: 'payload.signature', both base64url. */
export class UploadUrlSigner {
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = hmacKey(`logo-upload:${secret}`);
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  sign(grant: UploadGrant): string {
    const payload = Buffer.from(JSON.stringify(grant)).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The grant when the signature is right (expiry is checked by the caller); otherwise null. */
  verify(token: string): UploadGrant | null {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as UploadGrant;
      return typeof grant.n === 'string' && typeof grant.o === 'number' && typeof grant.e === 'number' ? grant : null;
    } catch {
      return null;
    }
  }
}

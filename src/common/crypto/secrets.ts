import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  KeyObject,
  randomBytes,
  randomInt,
} from 'node:crypto';

/** SHA-256 in hex: how opaque tokens (refresh, reset) are stored, so a stolen table holds no usable token. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A URL-safe random token of 32 bytes. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A numeric code of the given length, uniformly drawn. */
export function randomDigits(length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String(randomInt(10));
  return s;
}

/** A temporary password with letters, digits and a symbol, easy to type from an e-mail. */
export function temporaryPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let s = '';
  for (let i = 0; i < 14; i++) s += alphabet[randomInt(alphabet.length)];
  return `${s}#${randomInt(10)}`;
}

/** AES-256-GCM with a random IV: 'iv.tag.ciphertext' in base64url. */
export function encrypt(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

export function decrypt(sealed: string, key: Buffer): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/**
 * An HMAC key as a KeyObject, made once per secret. Given a string, jsonwebtoken first tries to parse it
 * as a public key on every verify, and createHmac re-imports it on every call; a KeyObject skips both.
 * The key bytes are the secret's UTF-8 bytes, so signatures are the same as with the string.
 */
export function hmacKey(secret: string | Buffer): KeyObject {
  return createSecretKey(typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret);
}

import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hash,
  KeyObject,
  randomBytes,
  randomFillSync,
  randomInt,
} from 'node:crypto';

/** SHA-256 in hex: how opaque tokens (refresh, reset) are stored, so a stolen table holds no usable token. */
export function sha256(value: string): string {
  // The one-shot form: no Hash object per call (a refresh hashes two tokens).
  return hash('sha256', value, 'hex');
}

const TOKEN_BYTES = 32;
/**
 * Random bytes drawn from the CSPRNG a page at a time and handed out once each, as Node does for randomUUID():
 * one call into OpenSSL per 128 tokens instead of one per token (a refresh makes one). No byte is used twice.
 */
const pool = Buffer.alloc(TOKEN_BYTES * 128);
let poolOffset = pool.length;

/** A URL-safe random token of 32 bytes. */
export function randomToken(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + TOKEN_BYTES);
  // Handed out bytes are wiped, so that the pool never holds a token already issued.
  pool.fill(0, poolOffset, poolOffset + TOKEN_BYTES);
  poolOffset += TOKEN_BYTES;
  return token;
}

/** A numeric code of the given length, uniformly drawn. */
export function randomDigits(length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String(randomInt(10));
  return s;
}

/**
 * A temporary password with letters, digits and a symbol, easy to type from an e-mail: 16 characters, or
 * `minLength` when an organisation's policy asks for more.
 */
export function temporaryPassword(minLength = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let s = '';
  for (let i = 0; i < Math.max(14, minLength - 2); i++) s += alphabet[randomInt(alphabet.length)];
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

import { createHash, randomBytes } from 'node:crypto';
import { decrypt, encrypt, randomDigits, randomToken, sha256, temporaryPassword } from './secrets';
import { testSecret } from '../../../test/utils/secrets';

describe('secrets', () => {
  it('encrypts with a random IV and refuses a tampered ciphertext', () => {
    const key = randomBytes(32);
    const plain = testSecret('totp');
    const a = encrypt(plain, key);
    expect(a).not.toContain(plain);
    expect(encrypt(plain, key)).not.toBe(a);
    expect(decrypt(a, key)).toBe(plain);
    const [iv, tag, body] = a.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => decrypt([iv, tag, flipped.toString('base64url')].join('.'), key)).toThrow();
    expect(() => decrypt(a, randomBytes(32))).toThrow();
  });

  it('makes codes of digits and temporary passwords that pass the password rules', () => {
    expect(randomDigits(6)).toMatch(/^\d{6}$/);
    const p = temporaryPassword();
    expect(p.length).toBeGreaterThanOrEqual(8);
    expect(p.length).toBeLessThanOrEqual(50);
    expect(sha256('x')).toHaveLength(64);
  });

  it('hashes tokens to the SHA-256 hex digest they are stored under', () => {
    const token = testSecret('token');
    expect(sha256(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(sha256('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
  });

  it('issues 32-byte URL-safe tokens that never repeat, across refills of its random pool', () => {
    // 1,000 tokens span eight refills of the 128-token pool.
    const tokens = Array.from({ length: 1000 }, () => randomToken());
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    // Every byte value turns up: the tokens are drawn, not zeros or a repeated page.
    const bytes = new Set(tokens.flatMap((t) => [...Buffer.from(t, 'base64url')]));
    expect(bytes.size).toBe(256);
  });
});

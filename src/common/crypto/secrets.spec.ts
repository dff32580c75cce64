import { randomBytes } from 'node:crypto';
import { decrypt, encrypt, randomDigits, sha256, temporaryPassword } from './secrets';

describe('secrets', () => {
  it('encrypts with a random IV and refuses a tampered ciphertext', () => {
    const key = randomBytes(32);
    const a = encrypt('JBSWY3DPEHPK3PXP', key);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(encrypt('JBSWY3DPEHPK3PXP', key)).not.toBe(a);
    expect(decrypt(a, key)).toBe('JBSWY3DPEHPK3PXP');
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
});

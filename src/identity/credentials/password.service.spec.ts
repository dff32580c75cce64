import * as argon2 from 'argon2';
import { hashingSlots, PasswordService } from './password.service';
import { testPassword, testSecret } from '../../../test/utils/secrets';

const RIGHT = testPassword('Right');
const WRONG = testPassword('Wrong');
/** Hashes the held argon2 answers and is asked about: opaque strings, made per run. */
const STORED_HASH = testSecret('stored-hash');
const NEW_HASH = testSecret('new-hash');

// argon2 itself unless a test holds its operations (jest.spyOn cannot reach the service's own import of it).
jest.mock('argon2', () => {
  const actual = jest.requireActual<typeof import('argon2')>('argon2');
  return { ...actual, hash: jest.fn(actual.hash), verify: jest.fn(actual.verify) };
});
const actual = jest.requireActual<typeof import('argon2')>('argon2');

describe('PasswordService: hashes share libuv threads with SQLite', () => {
  afterEach(() => {
    jest.mocked(argon2.hash).mockImplementation(actual.hash);
    jest.mocked(argon2.verify).mockImplementation(actual.verify);
  });

  it('runs one hash per core, always leaving a libuv thread free', () => {
    expect(hashingSlots(2, 4)).toBe(2);
    expect(hashingSlots(8, 4)).toBe(3);
    expect(hashingSlots(8, 16)).toBe(8);
    expect(hashingSlots(1, 4)).toBe(1);
    expect(hashingSlots(4, 1)).toBe(1);
  });

  it('never has more hashes and verifications in flight than its slots, however many callers wait', async () => {
    let inFlight = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const held = () =>
      new Promise<void>((resolve) => {
        inFlight++;
        most = Math.max(most, inFlight);
        releases.push(() => {
          inFlight--;
          resolve();
        });
      });
    jest.mocked(argon2.hash).mockImplementation(() => held().then(() => NEW_HASH) as never);
    jest.mocked(argon2.verify).mockImplementation(() => held().then(() => true));
    const passwords = new PasswordService();
    const callers = [
      ...Array.from({ length: 6 }, (_, i) => passwords.verify(STORED_HASH, testPassword(`Caller${i}`))),
      ...Array.from({ length: 4 }, (_, i) => passwords.hash(testPassword(`New${i}`))),
    ];
    // Release the held operations one at a time, checking the bound at every step.
    for (let released = 0; released < callers.length; released++) {
      await new Promise((r) => setImmediate(r));
      expect(inFlight).toBe(Math.min(hashingSlots(), callers.length - released));
      releases.shift()!();
    }
    await expect(Promise.all(callers)).resolves.toEqual([...Array(6).fill(true), ...Array(4).fill(NEW_HASH)]);
    expect(most).toBe(hashingSlots());
  });

  it('checks real argon2id hashes: the right password, a wrong one, and no hash at all', async () => {
    const passwords = new PasswordService();
    const hash = await passwords.hash(RIGHT);
    expect(hash).toMatch(/^\$argon2id\$v=19\$/);
    expect(hash.split('$')[3].split(',').sort()).toEqual(['m=19456', 'p=1', 't=2']);
    await expect(passwords.verify(hash, RIGHT)).resolves.toBe(true);
    await expect(passwords.verify(hash, WRONG)).resolves.toBe(false);
    await expect(passwords.verify(null, RIGHT)).resolves.toBe(false);
  });

  it("an account's password reported compromised is 'blocked' when right, 'wrong' when wrong, until a new one is set", async () => {
    const passwords = new PasswordService();
    const passwordHash = await passwords.hash(RIGHT);
    const reported = { passwordHash, passwordCompromisedAt: new Date() };
    await expect(passwords.verifyAccount(reported, RIGHT)).resolves.toBe('blocked');
    await expect(passwords.verifyAccount(reported, WRONG)).resolves.toBe('wrong');
    const cleared = { passwordHash, passwordCompromisedAt: null };
    await expect(passwords.verifyAccount(cleared, RIGHT)).resolves.toBe('right');
    await expect(passwords.verifyAccount(null, RIGHT)).resolves.toBe('wrong');
  });
});

import * as argon2 from 'argon2';
import { User } from '../../platform/database/entities/user.entity';
import { AuthService } from './auth.service';
import { SignInAttempts } from './sign-in/sign-in-attempts';
import { PasswordService } from '../credentials/password.service';
import { testPassword } from '../../../test/utils/secrets';

jest.mock('argon2', () => {
  const actual = jest.requireActual('argon2');
  return { ...actual, verify: jest.fn(actual.verify) };
});
const verify = argon2.verify as jest.MockedFunction<typeof argon2.verify>;
// The account is read with a statement of its own (findRowWith); here from the fake repository's findOneBy.
jest.mock('../../platform/database/entity-rows', () => ({
  findRowWith: async (repository: { findOneBy: (key: object) => Promise<unknown> }, key: object) => {
    const row = await repository.findOneBy(key);
    return row ? { row, joined: null } : null;
  },
}));

/** Timing: every failed sign-in costs one argon2 verification with the server's parameters. */
describe('AuthService.login: the same argon2 work whether or not the account exists', () => {
  const passwords = new PasswordService();
  let stored: Partial<User> | null;
  let auth: AuthService;
  const failures: string[] = [];
  const login = (username: string, password = testPassword('Wrong')) =>
    auth.login({ username, password, acceptToS: true }, noChallenge, { ip: '10.0.0.1', userAgent: 'jest' });
  // A first sign-in step: no challenge token came.
  const noChallenge = {
    given: false,
    userId: () => {
      throw new Error('the first step reads no challenge');
    },
  };

  beforeAll(async () => {
    await passwords.onModuleInit();
  });
  beforeEach(() => {
    verify.mockClear();
    failures.length = 0;
    const users = { findOneBy: async () => stored };
    const throttle = {
      check: async () => undefined,
      recordFailure: async (account: string) => (failures.push(account), { failures: 1, alertOwner: false }),
      recordSuccess: async () => undefined,
    };
    const none = {} as never;
    const audit = { manager: none, record: async () => undefined };
    const attempts = new SignInAttempts(users as never, none, throttle as never, audit as never, none, passwords);
    auth = new AuthService(attempts, none, none, none, none, none);
  });

  const realHash = () => passwords.hash(testPassword('Right'));
  const serverParameters = /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/;

  it('an unknown e-mail: one verification against a dummy hash made with the server parameters, then 401', async () => {
    stored = null;
    await expect(login('nobody@example.com')).rejects.toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0][0]).toMatch(serverParameters);
    expect(failures).toEqual(['nobody@example.com']);
  });

  it('an account without a password (SSO only): the same verification, the same 401', async () => {
    stored = { id: 7, email: 'sso@example.com', passwordHash: null, isSSO: true };
    await expect(login('sso@example.com')).rejects.toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0][0]).toMatch(serverParameters);
  });

  it('a wrong password of a real account: one verification against its hash, the same 401', async () => {
    const passwordHash = await realHash();
    stored = { id: 8, email: 'real@example.com', passwordHash };
    verify.mockClear();
    await expect(login('real@example.com')).rejects.toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0][0]).toBe(passwordHash);
    expect(passwordHash).toMatch(serverParameters);
  });
});

import { Logger } from '@nestjs/common';
import { AppConfig } from '../../platform/config/env.validation';
import { BreachedPasswordsService, inOfflineList } from './breached-passwords.service';
import { RangeServer, startRangeServer } from '../../../test/utils/servers/range-server';
import { BREACHED_EXAMPLES, FIXTURE_PASSWORDS } from '../../../test/utils/password-examples';
import { testPassword } from '../../../test/utils/secrets';

/** Only the range server knows it: made for this run, strong enough for every rule and absent from the offline list. */
const RANGE_ONLY = testPassword('Range');
const { listed: LISTED, suffixed: SUFFIXED } = BREACHED_EXAMPLES;

describe('BreachedPasswordsService', () => {
  let range: RangeServer;
  const warnings: string[] = [];
  // A generous wait for answers that come (a loaded machine is slow); the slow server never answers in time.
  const service = (url: string | undefined, timeoutMs = 10_000) =>
    new BreachedPasswordsService({ pwnedPasswordsUrl: url, pwnedPasswordsTimeoutMs: timeoutMs } as AppConfig);

  beforeAll(async () => {
    range = await startRangeServer([RANGE_ONLY, LISTED], 60_000);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
  });
  afterAll(async () => {
    await range.close();
    jest.restoreAllMocks();
  });
  beforeEach(() => {
    range.mode = 'up';
    range.requests.length = 0;
    warnings.length = 0;
  });

  it('finds listed passwords in any case, and a listed word with digits and symbols added', () => {
    expect(inOfflineList(LISTED)).toBe(true);
    expect(inOfflineList(LISTED.toUpperCase())).toBe(true);
    expect(inOfflineList(SUFFIXED)).toBe(true);
    for (const other of BREACHED_EXAMPLES.others) expect(inOfflineList(other)).toBe(true);
    expect(inOfflineList(RANGE_ONLY)).toBe(false);
  });

  it('passes the passwords the test fixtures set and sign in with', () => {
    for (const fixture of FIXTURE_PASSWORDS) expect([fixture, inOfflineList(fixture)]).toEqual([fixture, false]);
  });

  it('without PWNED_PASSWORDS_URL asks nobody', async () => {
    await expect(service(undefined).isBreached(RANGE_ONLY)).resolves.toBe(false);
    expect(range.requests).toHaveLength(0);
  });

  it('asks the range API with only the first five characters of the SHA-1, and finds the suffix', async () => {
    await expect(service(range.url).isBreached(RANGE_ONLY)).resolves.toBe(true);
    expect(range.requests.map((r) => r.url)).toEqual([expect.stringMatching(/^\/range\/[0-9A-F]{5}$/)]);
    expect(range.requests[0].headers['add-padding']).toBe('true');
    await expect(service(range.url).isBreached(testPassword('Unlisted'))).resolves.toBe(false);
    expect(warnings).toEqual([]);
  });

  it('does not ask the range API about a password the offline list already refuses', async () => {
    await expect(service(range.url).isBreached(LISTED)).resolves.toBe(true);
    expect(range.requests).toHaveLength(0);
  });

  it('a slow range API never blocks the change: the offline list decides, and the fallback is logged', async () => {
    range.mode = 'slow';
    const started = Date.now();
    await expect(service(range.url, 200).isBreached(RANGE_ONLY)).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(warnings).toEqual([expect.stringMatching(/range API could not be used.*offline list decided alone/)]);
  });

  it('a failing or unreachable range API falls back to the offline list, and it is logged', async () => {
    range.mode = 'error';
    await expect(service(range.url).isBreached(RANGE_ONLY)).resolves.toBe(false);
    await expect(service('http://127.0.0.1:1').isBreached(RANGE_ONLY)).resolves.toBe(false);
    await expect(service(range.url).isBreached(SUFFIXED)).resolves.toBe(true);
    expect(warnings).toHaveLength(2);
  });

  it('refuses with 400 PASSWORD_BREACHED, the reason, and the field', async () => {
    const refused = await service(undefined)
      .assertNotBreached(SUFFIXED, 'newPassword')
      .catch((e: { getStatus(): number; getResponse(): unknown }) => ({
        status: e.getStatus(),
        body: e.getResponse(),
      }));
    expect(refused).toMatchObject({
      status: 400,
      body: {
        code: 'PASSWORD_BREACHED',
        message: expect.stringMatching(/data breaches/),
        errors: [{ field: 'newPassword' }],
      },
    });
  });
});

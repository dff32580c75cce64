import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import {
  api,
  ApiError,
  breachedPasswordMessage,
  MFA_ENROLMENT_EVENT,
  resolveUrl,
  SESSION_EXPIRED_EVENT,
  tokenStore,
} from './api';

afterEach(() => vi.unstubAllGlobals());

describe('request layer (spec 001 §7.1)', () => {
  it('sends server paths with credentials, a JSON content type and the stored token', async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respond('GET', '/api/users/current', 200, { id: 1 });
    tokenStore.set('tok-1');
    await api.get('api/users/current');
    expect(f.calls[0].url).toBe('/api/users/current');
    expect(f.calls[0].headers.get('Authorization')).toBe('Bearer tok-1');
    expect(f.calls[0].headers.get('Content-Type')).toBe('application/json');
  });

  it('prefixes only api, pqte, mfa, auth and refresh paths', () => {
    for (const p of ['api/x', 'pqte/x', 'mfa/email-mfa', 'auth/login', 'refresh', '/api/x'])
      expect(resolveUrl(p).server).toBe(true);
    for (const p of ['apix/y', 'logo.svg', 'assets/a.js', 'https://cdn.example.com/api/x'])
      expect(resolveUrl(p).server).toBe(false);
  });

  it("refreshes on 403 'jwt expired' and retries once with the new token, invisibly", async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    let first = true;
    f.respondWith('GET', '/api/users/current', () => {
      if (first) {
        first = false;
        return { status: 403, body: { success: false, message: 'jwt expired' } };
      }
      return { status: 200, body: { id: 7 } };
    });
    f.respond('POST', '/refresh', 200, { success: true, newAccessToken: 'tok-2' });
    tokenStore.set('tok-1');
    await expect(api.get('api/users/current')).resolves.toEqual({ id: 7 });
    expect(f.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/users/current',
      'POST /refresh',
      'GET /api/users/current',
    ]);
    expect(f.calls[2].headers.get('Authorization')).toBe('Bearer tok-2');
    expect(tokenStore.get()).toBe('tok-2');
  });

  it('does not refresh on other 403s, and retries at most once', async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respond('GET', '/api/a', 403, { success: false, message: 'Forbidden' });
    f.respond('GET', '/api/b', 403, { success: false, message: 'jwt expired' });
    f.respond('POST', '/refresh', 200, { success: true, newAccessToken: 'tok-3' });
    tokenStore.set('tok-1');
    await expect(api.get('api/a')).rejects.toBeInstanceOf(ApiError);
    expect(f.calls).toHaveLength(1);
    await expect(api.get('api/b')).rejects.toMatchObject({ status: 403 });
    expect(f.calls.filter((c) => c.url === '/refresh')).toHaveLength(1);
  });

  it('shares one refresh between concurrent requests and signals when it fails', async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respond('GET', /\/api\/p\d/, 403, { success: false, message: 'jwt expired' });
    f.respond('POST', '/refresh', 401, { success: false, message: 'Your session has ended.' });
    const expired = vi.fn();
    window.addEventListener(SESSION_EXPIRED_EVENT, expired);
    tokenStore.set('tok-1');
    await Promise.allSettled([api.get('api/p1'), api.get('api/p2')]);
    expect(f.calls.filter((c) => c.url === '/refresh')).toHaveLength(1);
    expect(expired).toHaveBeenCalled();
    window.removeEventListener(SESSION_EXPIRED_EVENT, expired);
  });

  it('sends a challenge token instead of the stored one, and never refreshes for it', async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respond('POST', '/auth/login', 403, { success: false, message: 'jwt expired' });
    tokenStore.set('tok-1');
    await expect(api.post('auth/login', {}, { bearer: 'challenge' })).rejects.toMatchObject({
      body: { message: 'jwt expired' },
    });
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0].headers.get('Authorization')).toBe('Bearer challenge');
  });
});

describe("refusals of an organisation's security policy", () => {
  it('a 403 MFA_ENROLMENT_REQUIRED tells the app, which re-reads the profile and goes to the enrolment', async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respond('GET', '/api/notifications', 403, { code: 'MFA_ENROLMENT_REQUIRED', message: 'Enrol first.' });
    tokenStore.set('tok-1');
    const heard = vi.fn();
    window.addEventListener(MFA_ENROLMENT_EVENT, heard);
    await expect(api.get('api/notifications')).rejects.toBeInstanceOf(ApiError);
    window.removeEventListener(MFA_ENROLMENT_EVENT, heard);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it("a password shorter than the organisation's minimum is shown under the field, as a breached one is", () => {
    const short = new ApiError(400, {
      code: 'WEAK_PASSWORD',
      message: 'Password must be at least 14 characters long.',
      errors: [{ field: 'newPassword', message: 'Password must be at least 14 characters long.' }],
    });
    expect(breachedPasswordMessage(short)).toBe('Password must be at least 14 characters long.');
    // The same code without a field (the new password equals the old one) is a message for the whole form.
    expect(breachedPasswordMessage(new ApiError(400, { code: 'WEAK_PASSWORD', message: 'Same.' }))).toBeNull();
  });
});

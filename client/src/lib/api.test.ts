import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import { AVAILABILITY_MESSAGES } from '@shared/messages';
import {
  api,
  ApiError,
  breachedPasswordMessage,
  MFA_ENROLMENT_EVENT,
  resolveUrl,
  SESSION_EXPIRED_EVENT,
  tokenStore,
} from './api';
import { serviceAvailability } from './service-availability';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  serviceAvailability.report(false);
});

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

describe('while the server is briefly unavailable (503 SERVICE_UNAVAILABLE)', () => {
  const UNAVAILABLE = {
    status: 503,
    headers: { 'Retry-After': '3' },
    body: {
      success: false,
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: AVAILABILITY_MESSAGES.SERVICE_UNAVAILABLE,
    },
  };

  it('a read is sent again after the Retry-After, and answers once the server does', async () => {
    vi.useFakeTimers();
    const f = fakeServer({}, { unmatched: NO_SESSION });
    let refusals = 2;
    f.respondWith('GET', '/api/users', () => (refusals-- > 0 ? UNAVAILABLE : { status: 200, body: { items: [] } }));
    tokenStore.set('tok-1');
    const answer = api.get('api/users');
    await vi.advanceTimersByTimeAsync(0);
    expect(f.calls).toHaveLength(1);
    expect(serviceAvailability.unavailable).toBe(true);
    await vi.advanceTimersByTimeAsync(2999);
    expect(f.calls).toHaveLength(1); // waits what the server asked, not less
    await vi.advanceTimersByTimeAsync(1);
    expect(f.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(3000);
    await expect(answer).resolves.toEqual({ items: [] });
    expect(f.calls).toHaveLength(3);
    expect(serviceAvailability.unavailable).toBe(false);
  });

  it('a read is given up after a bounded number of tries, with the calm message', async () => {
    vi.useFakeTimers();
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respondWith('GET', '/api/users', () => UNAVAILABLE);
    tokenStore.set('tok-1');
    const answer = api.get('api/users').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    const error = (await answer) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(503);
    expect(error.message).toBe(AVAILABILITY_MESSAGES.SERVICE_UNAVAILABLE);
    expect(f.calls).toHaveLength(4);
    expect(serviceAvailability.unavailable).toBe(true);
  });

  it('a write is not sent again: its caller hears the calm message at once', async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respondWith('POST', '/api/users/add', () => UNAVAILABLE);
    f.respondWith('PUT', '/api/users/updateRole', () => UNAVAILABLE);
    tokenStore.set('tok-1');
    await expect(api.post('api/users/add', { email: 'a@b.c' })).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    await expect(api.put('api/users/updateRole', {})).rejects.toMatchObject({ status: 503 });
    expect(f.calls.map((c) => c.method)).toEqual(['POST', 'PUT']);
    expect(serviceAvailability.unavailable).toBe(true);
  });

  it('a refresh refused as unavailable keeps the person signed in: the call fails calmly, no session-expired', async () => {
    vi.useFakeTimers();
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respond('GET', '/api/users/current', 403, { success: false, message: 'jwt expired' });
    f.respondWith('POST', '/refresh', () => UNAVAILABLE);
    const expired = vi.fn();
    window.addEventListener(SESSION_EXPIRED_EVENT, expired);
    try {
      tokenStore.set('tok-1');
      const answer = api.get('api/users/current').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await answer).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(expired).not.toHaveBeenCalled();
      expect(tokenStore.get()).toBe('tok-1');
      // The refresh was tried again (a refused refresh rotated nothing), a bounded number of times.
      expect(f.calls.filter((c) => c.url === '/refresh')).toHaveLength(4);
    } finally {
      window.removeEventListener(SESSION_EXPIRED_EVENT, expired);
    }
  });

  it('another 503 (readiness NOT_READY) is neither retried nor taken for an outage', async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respond('GET', '/api/health/ready', 503, { success: false, statusCode: 503, code: 'NOT_READY', message: 'x' });
    await expect(api.get('api/health/ready')).rejects.toMatchObject({ status: 503 });
    expect(f.calls).toHaveLength(1);
    expect(serviceAvailability.unavailable).toBe(false);
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

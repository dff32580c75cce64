import { describe, expect, it } from 'vitest';
import { OIDC_CLIENT_MESSAGES as M, OIDC_REDIRECT_URIS_MAX } from '@shared/identity/oidc-clients';
import { logoutUriError, redirectUriAllowed, redirectUrisError, uriLines } from './redirect-uri-lines';

describe('redirect URIs (the provider’s registration rules, checked before sending)', () => {
  it('takes https for every application, plain http only on loopback for a public one', () => {
    expect(redirectUriAllowed('https://app.example.com/cb', 'confidential', false)).toBe(true);
    expect(redirectUriAllowed('https://app.example.com/cb?x=1', 'public', false)).toBe(true);
    for (const host of ['127.0.0.1:8765', '[::1]:8765', 'localhost'])
      expect(redirectUriAllowed(`http://${host}/cb`, 'public', false)).toBe(true);
    expect(redirectUriAllowed('http://127.0.0.1:8765/cb', 'confidential', false)).toBe(false);
    expect(redirectUriAllowed('http://app.example.com/cb', 'public', false)).toBe(false);
    expect(redirectUriAllowed('http://localhost.evil.example/cb', 'public', false)).toBe(false);
  });

  it('refuses a fragment, a relative address, credentials, other schemes and an over-long address', () => {
    for (const uri of [
      'https://app.example.com/cb#x',
      '/cb',
      'app.example.com/cb',
      'https://user:pw@app.example.com/cb',
      'javascript:alert(1)',
      'com.example.app:/cb',
      `https://app.example.com/${'a'.repeat(2048)}`,
    ])
      expect(redirectUriAllowed(uri, 'public', false)).toBe(false);
  });

  it('reads one address a line (each once), and names the first one refused', () => {
    expect(uriLines(' https://a.example/cb \r\n\n  https://b.example/cb\nhttps://a.example/cb')).toEqual([
      'https://a.example/cb',
      'https://b.example/cb',
    ]);
    expect(redirectUrisError('  \n', 'confidential', true, false)).toBe(M.REDIRECT_URIS_REQUIRED);
    expect(redirectUrisError('', 'confidential', false, false)).toBeNull();
    expect(redirectUrisError('https://a.example/cb\nhttp://a.example/cb', 'confidential', true, false)).toBe(
      `http://a.example/cb: ${M.REDIRECT_URI_INVALID}`,
    );
    const many = Array.from({ length: OIDC_REDIRECT_URIS_MAX + 1 }, (_, i) => `https://a.example/${i}`).join('\n');
    expect(redirectUrisError(many, 'public', true, false)).toBe(M.REDIRECT_URIS_TOO_MANY);
  });

  it('takes an https back-channel logout URI, or none', () => {
    expect(logoutUriError('', false)).toBeNull();
    expect(logoutUriError(' https://app.example.com/logout ', false)).toBeNull();
    expect(logoutUriError('http://127.0.0.1/logout', false)).toBe(M.LOGOUT_URI_INVALID);
  });

  it('where the deployment allows private networks (GET /api/app-info), any http, as the server takes it', () => {
    expect(redirectUriAllowed('http://app.internal/cb', 'confidential', true)).toBe(true);
    expect(redirectUrisError('http://10.0.0.5/cb', 'confidential', true, true)).toBeNull();
    expect(logoutUriError('http://127.0.0.1/logout', true)).toBeNull();
    // Never a fragment, credentials or another scheme.
    expect(redirectUriAllowed('http://app.internal/cb#x', 'confidential', true)).toBe(false);
    expect(redirectUriAllowed('ftp://app.internal/cb', 'confidential', true)).toBe(false);
  });
});

import { AppException } from '../../platform/web/app.exception';
import { checkLogoutUri, checkRedirectUri } from './redirect-uris';
import { withTestCredentials } from '../../../test/utils/secrets';

const refused = (f: () => unknown) => expect(f).toThrow(AppException);

describe('redirect URIs an application may register', () => {
  it('takes https addresses as written', () => {
    for (const type of ['confidential', 'public'] as const)
      expect(checkRedirectUri('https://app.example/cb?x=1', type, false)).toBe('https://app.example/cb?x=1');
  });

  it('takes http on loopback for a public (native) application only (RFC 8252)', () => {
    for (const uri of ['http://127.0.0.1:8123/cb', 'http://[::1]/cb', 'http://localhost:3000/cb'])
      expect(checkRedirectUri(uri, 'public', false)).toBe(uri);
    refused(() => checkRedirectUri('http://127.0.0.1:8123/cb', 'confidential', false));
    refused(() => checkRedirectUri('http://app.example/cb', 'public', false));
    refused(() => checkRedirectUri('http://localhost.evil.example/cb', 'public', false));
  });

  it('takes any http with ALLOW_PRIVATE_NETWORKS', () => {
    expect(checkRedirectUri('http://intranet.local/cb', 'confidential', true)).toBe('http://intranet.local/cb');
  });

  it('refuses fragments, credentials, other schemes and non-addresses', () => {
    for (const uri of [
      'https://app.example/cb#x',
      'https://app.example/cb#',
      withTestCredentials('https://app.example/cb').url,
      'javascript:alert(1)',
      'data:text/html,hi',
      '/relative',
      'not a url',
    ])
      refused(() => checkRedirectUri(uri, 'public', true));
  });
});

describe('back-channel logout URIs', () => {
  it('are https to a public address unless private networks are allowed', () => {
    expect(checkLogoutUri('https://app.example/logout', false)).toBe('https://app.example/logout');
    refused(() => checkLogoutUri('http://app.example/logout', false));
    refused(() => checkLogoutUri('https://127.0.0.1/logout', false));
    refused(() => checkLogoutUri('https://10.0.0.5/logout', false));
    refused(() => checkLogoutUri('https://localhost/logout', false));
    expect(checkLogoutUri('http://127.0.0.1:9/logout', true)).toBe('http://127.0.0.1:9/logout');
  });
});

// A real OpenID Connect provider (panva/oidc-provider) for the SSO tests, with its development login
// and consent pages: any login name is accepted, and becomes the subject and the e-mail claim.
// Usage: node test/utils/identity-providers/oidc-provider.mjs <port> <client_id> <client_secret> <redirect_uri>
import Provider from 'oidc-provider';

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  findAccount: async (_ctx, sub) => ({
    accountId: sub,
    claims: async () => ({ sub, email: sub, email_verified: true }),
  }),
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['oidc-test-cookie-key'] },
});
provider.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));

// A real OpenID Connect provider (panva/oidc-provider) for the per-organisation connections: several clients,
// RP-initiated logout and back-channel logout. The logout tokens it sends are kept, not delivered, so that the
// test hands them to the application under test: GET /test/backchannel?client_id=&sub=&sid= issues one and
// answers it. Any login name is accepted and becomes the subject; the e-mail claim is the login name too.
// Usage: node test/utils/identity-providers/oidc-org-provider.mjs <port> '<clients as JSON>'
import Provider from 'oidc-provider';

const [port, clientsJson] = process.argv.slice(2);
const clients = JSON.parse(clientsJson);
let lastLogoutToken = null;
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: clients.map((c) => ({
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    backchannel_logout_session_required: true,
    ...c,
  })),
  pkce: { required: () => true },
  claims: { openid: ['sub', 'sid'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
  findAccount: async (_ctx, sub) => ({
    accountId: sub,
    claims: async () => ({ sub, email: sub, email_verified: true, given_name: 'Jit', family_name: 'Person' }),
  }),
  features: {
    devInteractions: { enabled: true },
    backchannelLogout: { enabled: true },
    rpInitiatedLogout: { enabled: true },
  },
  // The logout token is kept for the test instead of being posted (the application under test has no port).
  fetch: async (url, options) => {
    if (options.method === 'POST' && options.body instanceof URLSearchParams && options.body.has('logout_token')) {
      lastLogoutToken = options.body.get('logout_token');
      return new Response(null, { status: 200 });
    }
    delete options.dispatcher;
    return fetch(url, options);
  },
  cookies: { keys: ['oidc-test-cookie-key'] },
});
provider.use(async (ctx, next) => {
  if (ctx.path !== '/test/backchannel') return next();
  const client = await provider.Client.find(ctx.query.client_id);
  lastLogoutToken = null;
  await client.backchannelLogout(ctx.query.sub, ctx.query.sid);
  ctx.body = { logout_token: lastLogoutToken };
});
provider.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));

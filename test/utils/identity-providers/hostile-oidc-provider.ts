import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { exportJWK, generateKeyPair, JWTPayload, SignJWT } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/**
 * An OpenID provider under the test's control, for the attacks on ID tokens: it publishes a key set, and its token
 * endpoint answers whatever ID token the test mints for the code (crafted headers, claims, keys, signatures).
 * The test plays the browser: `authorize` reads the authorization URL our server built and answers with the
 * callback address the provider would redirect to, remembering the request's nonce for the token.
 */
export interface HostileOidcProvider {
  issuer: string;
  /** What the token endpoint answers for the next codes; by default a valid token of `claims`. */
  mint: (request: AuthorizationRequest) => Promise<string>;
  /** The issuer its discovery document names (its own address by default). */
  metadataIssuer?: string;
  /** Claims userinfo answers (none by default: the ID token carries the e-mail). */
  userinfo?: Record<string, unknown>;
  /** A valid ID token for `request`, signed by the published key, with `claims` over the defaults. */
  idToken(request: AuthorizationRequest, claims?: JWTPayload, header?: { kid?: string }): Promise<string>;
  /** Signs `payload` as the provider does (its published key, RS256), nothing added. */
  signPublished(payload: JWTPayload): Promise<string>;
  /** Signs `payload` with the given algorithm and key (any, published or not). */
  sign(payload: JWTPayload, alg: string, key: PrivateKey | Uint8Array, kid?: string): Promise<string>;
  /** A key pair nobody published. */
  unrelatedKey(): Promise<PrivateKey>;
  /** Publishes a new signing key in place of the current one (a rotation); returns its kid. */
  rotate(): Promise<string>;
  /** How many times the key set was fetched. */
  jwksFetches(): number;
  /**
   * The callback path and query the provider redirects the browser to once `login` signed in, for this authorization
   * URL; `extra` adds parameters (an `iss` of another provider).
   */
  authorize(authorizationUrl: string, login: string, extra?: Record<string, string>): string;
  stop(): Promise<void>;
}

export interface AuthorizationRequest {
  clientId: string;
  nonce: string;
  state: string;
  /** The subject the person signs in as (`login` of authorize). */
  login: string;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/**
 * One provider for a spec file (started in beforeAll, stopped in afterAll, its `mint` back to valid tokens after each
 * test): `provider()` is the running one.
 */
export function hostileOidcProviderForFile(): () => HostileOidcProvider {
  let provider: HostileOidcProvider;
  beforeAll(async () => {
    provider = await startHostileOidcProvider();
  });
  afterAll(async () => {
    await provider.stop();
  });
  afterEach(() => {
    provider.mint = (r) => provider.idToken(r);
  });
  return () => provider;
}

/**
 * The settings that make `provider()` the deployment-wide OpenID provider, with `client` registered at it. The issuer
 * is read when the application starts (the provider is started by then).
 */
export function deploymentWideProvider(
  provider: () => HostileOidcProvider,
  client: { id: string; secret: string },
): Record<string, string> {
  return {
    get OIDC_ISSUER() {
      return provider().issuer;
    },
    OIDC_CLIENT_ID: client.id,
    OIDC_CLIENT_SECRET: client.secret,
  };
}

export async function startHostileOidcProvider(): Promise<HostileOidcProvider> {
  let signing = await generateKeyPair('RS256', { extractable: true });
  let kid = `k-${randomBytes(4).toString('hex')}`;
  let fetches = 0;
  const codes = new Map<string, AuthorizationRequest>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', provider.issuer);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/.well-known/openid-configuration')
        return json(200, {
          issuer: provider.metadataIssuer ?? provider.issuer,
          authorization_endpoint: `${provider.issuer}/authorize`,
          token_endpoint: `${provider.issuer}/token`,
          userinfo_endpoint: `${provider.issuer}/userinfo`,
          jwks_uri: `${provider.issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256', 'HS256', 'none'],
          code_challenge_methods_supported: ['S256'],
        });
      if (url.pathname === '/jwks') {
        fetches++;
        return json(200, { keys: [{ ...(await exportJWK(signing.publicKey)), kid, alg: 'RS256', use: 'sig' }] });
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        const code = new URLSearchParams(await body(req)).get('code') ?? '';
        const request = codes.get(code);
        codes.delete(code);
        if (!request) return json(400, { error: 'invalid_grant' });
        return json(200, {
          access_token: `at-${code}`,
          token_type: 'Bearer',
          expires_in: 300,
          id_token: await provider.mint(request),
        });
      }
      if (url.pathname === '/userinfo') return json(200, provider.userinfo ?? {});
      json(404, { error: 'not_found' });
    })().catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const provider: HostileOidcProvider = {
    issuer,
    mint: (request) => provider.idToken(request),
    async idToken(request, claims = {}, header = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        email: request.login,
        email_verified: true,
        nonce: request.nonce,
        auth_time: now,
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: header.kid ?? kid })
        .setIssuer((claims.iss as string) ?? issuer)
        .setAudience((claims.aud as string) ?? request.clientId)
        .setSubject((claims.sub as string) ?? `sub-${request.login}`)
        .setIssuedAt(now)
        .setExpirationTime((claims.exp as number) ?? now + 300)
        .sign(signing.privateKey);
    },
    signPublished(payload) {
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(signing.privateKey);
    },
    async sign(payload, alg, key, signedKid) {
      return new SignJWT(payload).setProtectedHeader({ alg, ...(signedKid ? { kid: signedKid } : {}) }).sign(key);
    },
    async unrelatedKey() {
      return (await generateKeyPair('RS256', { extractable: true })).privateKey;
    },
    async rotate() {
      signing = await generateKeyPair('RS256', { extractable: true });
      kid = `k-${randomBytes(4).toString('hex')}`;
      return kid;
    },
    jwksFetches: () => fetches,
    authorize(authorizationUrl, login, extra = {}) {
      const u = new URL(authorizationUrl);
      const request: AuthorizationRequest = {
        clientId: u.searchParams.get('client_id')!,
        nonce: u.searchParams.get('nonce')!,
        state: u.searchParams.get('state')!,
        login,
      };
      const code = randomBytes(12).toString('base64url');
      codes.set(code, request);
      const back = new URL(u.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', request.state);
      for (const [k, v] of Object.entries(extra)) back.searchParams.set(k, v);
      return `${back.pathname}${back.search}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return provider;
}

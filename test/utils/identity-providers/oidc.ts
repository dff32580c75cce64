import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop: () => void;
}

/** Starts test/utils/identity-providers/oidc-provider.mjs and waits until it listens. */
export async function startOidcProvider(redirectUri: string, port?: number): Promise<RunningProvider> {
  const p = port ?? (await freePort());
  const clientId = 'tax-portal';
  const clientSecret = 'provider-test-secret';
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, 'oidc-provider.mjs'), String(p), clientId, clientSecret, redirectUri],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`OIDC provider exited with ${code}`)));
  });
  return { issuer: `http://127.0.0.1:${p}`, clientId, clientSecret, stop: () => child.kill() };
}

/**
 * Plays the person at the provider: follows its redirects, fills its development login form with
 * `login`, confirms consent, and returns the URL it finally sends the browser to (our /callback).
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let hops = 0; hops < 20; hops++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    keep(res);
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (!next.startsWith(new URL(authorizationUrl).origin)) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`unexpected page at the provider (${res.status}): ${html.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const [tag] of html.matchAll(/<input\b[^>]*>/g)) {
      const name = /\bname="([^"]+)"/.exec(tag)?.[1];
      if (name) fields.set(name, /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '');
    }
    if (fields.has('login')) fields.set('login', login);
    if (fields.has('password')) fields.set('password', 'any');
    url = new URL(action, url).href;
    body = fields;
  }
  throw new Error('too many hops at the provider');
}

export interface OrgProviderClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string;
}

/** Starts test/utils/identity-providers/oidc-org-provider.mjs (several clients, RP-initiated and back-channel logout). */
export async function startOrgOidcProvider(
  clients: OrgProviderClient[],
): Promise<{ issuer: string; stop: () => void }> {
  const p = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, 'oidc-org-provider.mjs'), String(p), JSON.stringify(clients)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`OIDC provider exited with ${code}`)));
  });
  return { issuer: `http://127.0.0.1:${p}`, stop: () => child.kill() };
}

import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { generate } from 'selfsigned';
import { createSafeFetch, isPublicAddress, SafeFetchError } from './safe-fetch';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A real HTTPS server on loopback with a certificate for idp.test and 127.0.0.1, answering through `handler`. */
async function startServer(https: boolean) {
  // An EC key: an RSA one takes seconds to generate on a loaded machine.
  const pems = await generate([{ name: 'commonName', value: 'idp.test' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'idp.test' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const state: {
    handler: Handler;
    requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  } = {
    handler: (_req, res) => res.end('{}'),
    requests: [],
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      state.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      state.handler(req, res, body);
    });
  };
  const server: Server = https
    ? createHttpsServer({ key: pems.private, cert: pems.cert }, listener)
    : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    state,
    port,
    ca: pems.cert,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SafeFetchError);
  return (e as SafeFetchError).code;
};

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'lets %s through',
    (a) => expect(isPublicAddress(a)).toBe(true),
  );
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback, elsewhere in 127/8', '127.45.6.7'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.31.255.255'],
    ['private 192.168/16', '192.168.1.1'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['this network', '0.0.0.0'],
    ['multicast', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['documentation', '203.0.113.9'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['unique local', 'fd12:3456::1'],
    ['unique local fc00', 'fc00::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback, hex', '::ffff:7f00:1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['NAT64 of a private address', '64:ff9b::a00:1'],
    ['6to4 of a private address', '2002:a00:1::1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['not an address', 'example.com'],
  ])('refuses %s (%s)', (_label, a) => expect(isPublicAddress(a)).toBe(false));
});

describe('createSafeFetch', () => {
  let https: Awaited<ReturnType<typeof startServer>>;
  let plain: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    [https, plain] = await Promise.all([startServer(true), startServer(false)]);
  }, 30_000);
  afterAll(() => Promise.all([https.close(), plain.close()]));
  beforeEach(() => {
    https.state.requests = [];
    plain.state.requests = [];
    https.state.handler = (_req, res) => res.end('{}');
  });

  const open = (extra: Parameters<typeof createSafeFetch>[0] | object = {}) =>
    createSafeFetch({ allowPrivateNetworks: true, ca: https.ca, ...extra });
  const strict = (extra: object = {}) => createSafeFetch({ allowPrivateNetworks: false, ca: https.ca, ...extra });
  const at = (lookup: (host: string) => LookupAddress[]) => async (host: string) => lookup(host);

  describe('by default (SSO_ALLOW_PRIVATE_NETWORKS unset)', () => {
    it('refuses plain http and other schemes', async () => {
      expect(await refusal(strict()(`http://127.0.0.1:${plain.port}/`))).toBe('NOT_HTTPS');
      expect(await refusal(strict()('http://example.com/'))).toBe('NOT_HTTPS');
      expect(await refusal(strict()('file:///etc/passwd'))).toBe('NOT_HTTPS');
      expect(await refusal(strict()('ftp://example.com/'))).toBe('NOT_HTTPS');
      expect(await refusal(strict()('not a url'))).toBe('BAD_URL');
      expect(plain.state.requests).toHaveLength(0);
    });

    it('refuses loopback and private address literals without connecting', async () => {
      for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '10.0.0.1', '169.254.169.254'])
        expect(await refusal(strict()(`https://${host}:${https.port}/`))).toBe('PRIVATE_ADDRESS');
      expect(https.state.requests).toHaveLength(0);
    });

    it('refuses a name that resolves to a private address, or to a public and a private one', async () => {
      const inward = strict({ lookup: at(() => [{ address: '127.0.0.1', family: 4 }]) });
      expect(await refusal(inward(`https://idp.test:${https.port}/`))).toBe('PRIVATE_ADDRESS');
      const mixed = strict({
        lookup: at(() => [
          { address: '8.8.8.8', family: 4 },
          { address: 'fd00::1', family: 6 },
        ]),
      });
      expect(await refusal(mixed('https://idp.test/'))).toBe('PRIVATE_ADDRESS');
      expect(https.state.requests).toHaveLength(0);
    });

    it('names an unresolvable host as a network failure', async () => {
      const none = strict({
        lookup: () => Promise.reject(Object.assign(new Error('no'), { code: 'ENOTFOUND' })),
      });
      expect(await refusal(none('https://nowhere.test/'))).toBe('NETWORK');
    });
  });

  describe('what holds with SSO_ALLOW_PRIVATE_NETWORKS=true too', () => {
    it('fetches over https with the method, headers and body given, and answers a fetch Response', async () => {
      https.state.handler = (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.end(JSON.stringify({ ok: true }));
      };
      const res = await open()(`https://127.0.0.1:${https.port}/token?x=1`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'accept-encoding': 'gzip',
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'abc' }),
      });
      expect(res).toBeInstanceOf(Response);
      expect(res.status).toBe(200);
      expect(res.url).toBe(`https://127.0.0.1:${https.port}/token?x=1`);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ ok: true });
      const [seen] = https.state.requests;
      expect(seen).toMatchObject({ method: 'POST', url: '/token?x=1', body: 'grant_type=authorization_code&code=abc' });
      expect(seen.headers).toMatchObject({ accept: 'application/json', host: `127.0.0.1:${https.port}` });
      // No compressed answers: the size cap counts what is read.
      expect(seen.headers['accept-encoding']).toBeUndefined();
    });

    it('allows plain http only then', async () => {
      const res = await open()(`http://127.0.0.1:${plain.port}/`);
      expect(res.status).toBe(200);
    });

    it('verifies the certificate against the name in the URL', async () => {
      const elsewhere = open({ lookup: at(() => [{ address: '127.0.0.1', family: 4 }]) });
      expect((await elsewhere(`https://idp.test:${https.port}/`)).status).toBe(200);
      expect(await refusal(elsewhere(`https://other.test:${https.port}/`))).toBe('NETWORK');
      expect(await refusal(createSafeFetch({ allowPrivateNetworks: true })(`https://127.0.0.1:${https.port}/`))).toBe(
        'NETWORK',
      );
    });

    it('connects to the address it resolved and checked, never resolving a second time', async () => {
      let calls = 0;
      // A rebinding name: the first answer is the server, any later one somewhere else.
      const rebinding = open({
        lookup: at(() => [{ address: calls++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }]),
      });
      expect((await rebinding(`https://idp.test:${https.port}/jwks`)).status).toBe(200);
      expect(calls).toBe(1);
      expect(https.state.requests.map((r) => r.url)).toEqual(['/jwks']);
    });

    it('stops at the deadline, including a body that trickles in', async () => {
      https.state.handler = () => undefined;
      const started = Date.now();
      expect(await refusal(open({ timeoutMs: 300 })(`https://127.0.0.1:${https.port}/`))).toBe('TIMEOUT');
      expect(Date.now() - started).toBeLessThan(4000);
      https.state.handler = (_req, res) => {
        res.writeHead(200);
        const timer = setInterval(() => res.write('x'), 50);
        res.on('close', () => clearInterval(timer));
      };
      expect(await refusal(open({ timeoutMs: 300 })(`https://127.0.0.1:${https.port}/`))).toBe('TIMEOUT');
    });

    it('gives up after 5 seconds by default', async () => {
      https.state.handler = () => undefined;
      const started = Date.now();
      expect(await refusal(open()(`https://127.0.0.1:${https.port}/`))).toBe('TIMEOUT');
      expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
      expect(Date.now() - started).toBeLessThan(12_000);
    }, 20_000);

    it('honours the caller’s own abort signal', async () => {
      https.state.handler = () => undefined;
      const controller = new AbortController();
      const pending = open()(`https://127.0.0.1:${https.port}/`, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('caller gave up')), 50);
      await expect(pending).rejects.toThrow('caller gave up');
    });

    it('caps the body at 1 MiB, declared or streamed', async () => {
      const MiB = 1024 * 1024;
      https.state.handler = (_req, res) => res.end(Buffer.alloc(MiB, 'a'));
      expect((await (await open()(`https://127.0.0.1:${https.port}/`)).arrayBuffer()).byteLength).toBe(MiB);
      https.state.handler = (_req, res) => res.end(Buffer.alloc(MiB + 1, 'a'));
      expect(await refusal(open()(`https://127.0.0.1:${https.port}/`))).toBe('TOO_LARGE');
      https.state.handler = (_req, res) => {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        for (let i = 0; i < 20; i++) res.write(Buffer.alloc(64 * 1024, 'b'));
        res.end();
      };
      expect(await refusal(open()(`https://127.0.0.1:${https.port}/`))).toBe('TOO_LARGE');
    });

    it('truncate: a body over the cap is cut there, the connection closed, and the answer kept', async () => {
      const MiB = 1024 * 1024;
      const truncating = () => open({ overLimit: 'truncate' });
      https.state.handler = (_req, res) => res.writeHead(200).end(Buffer.alloc(2 * MiB, 'a'));
      const declared = await truncating()(`https://127.0.0.1:${https.port}/`);
      expect(declared.status).toBe(200);
      expect((await declared.arrayBuffer()).byteLength).toBe(MiB);
      https.state.handler = (_req, res) => {
        res.writeHead(201, { 'transfer-encoding': 'chunked' });
        // Never ends: only the cap ends the read.
        const more = () => res.write(Buffer.alloc(64 * 1024, 'b'), (e) => !e && !res.destroyed && setImmediate(more));
        more();
      };
      const streamed = await truncating()(`https://127.0.0.1:${https.port}/`);
      expect(streamed.status).toBe(201);
      expect((await streamed.arrayBuffer()).byteLength).toBe(MiB);
    });

    it('a header value a header cannot carry is refused without quoting it', async () => {
      const token = randomBytes(16).toString('hex');
      const secret = `${token}\r\nX-Injected: 1`;
      const error = await open()(`https://127.0.0.1:${https.port}/`, { headers: { authorization: `Bearer ${secret}` } })
        .then(() => null)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SafeFetchError);
      expect((error as SafeFetchError).code).toBe('BAD_HEADER');
      expect((error as Error).message).not.toContain(token);
      expect(https.state.requests).toHaveLength(0);
    });

    it('follows a few redirects, checking each target; manual mode hands the redirect back', async () => {
      https.state.handler = (req, res) => {
        const n = Number(req.url!.slice(1));
        if (n > 0) res.writeHead(302, { location: `/${n - 1}` }).end();
        else res.end('done');
      };
      expect(await (await open()(`https://127.0.0.1:${https.port}/3`)).text()).toBe('done');
      expect(await refusal(open()(`https://127.0.0.1:${https.port}/4`))).toBe('TOO_MANY_REDIRECTS');
      const manual = await open()(`https://127.0.0.1:${https.port}/1`, { redirect: 'manual' });
      expect(manual.status).toBe(302);
      expect(manual.headers.get('location')).toBe('/0');
      https.state.handler = (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      expect(await refusal(open()(`https://127.0.0.1:${https.port}/`))).toBe('NOT_HTTPS');
    });

    it('drops credentials when a redirect leaves the origin', async () => {
      https.state.handler = (_req, res) => res.writeHead(307, { location: `http://127.0.0.1:${plain.port}/x` }).end();
      await open()(`https://127.0.0.1:${https.port}/`, { headers: { authorization: 'Bearer secret' } });
      expect(plain.state.requests[0].headers.authorization).toBeUndefined();
    });

    it('serves as openid-client’s customFetch for issuer discovery', async () => {
      const issuer = `https://127.0.0.1:${https.port}`;
      https.state.handler = (req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/auth`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ['code'],
          }),
        );
      };
      const config = await oidc.discovery(new URL(issuer), 'portal', 'secret', undefined, {
        [oidc.customFetch]: open(),
      });
      expect(config.serverMetadata().token_endpoint).toBe(`${issuer}/token`);
      expect(https.state.requests.map((r) => r.url)).toEqual(['/.well-known/openid-configuration']);
      // Without the private-network switch the same discovery is refused before any request.
      await expect(
        oidc.discovery(new URL(issuer), 'portal', 'secret', undefined, { [oidc.customFetch]: strict() }),
      ).rejects.toThrow();
      expect(https.state.requests).toHaveLength(1);
    });
  });
});

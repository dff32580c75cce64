import { createServer } from 'node:net';

/** A free TCP port on loopback (for an app whose PUBLIC_URL must name the port it will listen on). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A browser, as far as a sign-in at the OpenID provider needs one: it keeps cookies (by name, for the one origin)
 * and follows redirects until one leaves the portal (to the application's redirect URI, or to the login card).
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  /** Keeps the cookies of a sign-in made through the API (its Set-Cookie headers). */
  keep(setCookie: string[] | string | undefined): void {
    for (const line of ([] as string[]).concat(setCookie ?? [])) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** One request, cookies in and out, no redirect followed. */
  async request(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
    const res = await fetch(new URL(url, this.origin), {
      method: init.method ?? 'GET',
      body: init.body,
      headers: { cookie: this.header(), ...(init.headers ?? {}) },
      redirect: 'manual',
    });
    this.keep(res.headers.getSetCookie());
    if (process.env.RP_DEBUG) console.log(init.method ?? 'GET', url, res.status, res.headers.get('location'));
    return res;
  }

  /**
   * Follows redirects from `url` while they stay on the portal outside its pages: answers the last response, and
   * where it pointed (the application's redirect URI with its code, or the login card).
   */
  async follow(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
    let res = await this.request(url, init);
    let location = res.headers.get('location');
    for (let hops = 0; location && hops < 10; hops++) {
      const next = new URL(location, this.origin);
      if (next.origin !== this.origin || next.pathname === '/logIn') break;
      res = await this.request(next.href);
      location = res.headers.get('location');
    }
    return { res, location: location ? new URL(location, this.origin).href : null };
  }
}

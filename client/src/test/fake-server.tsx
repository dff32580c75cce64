import { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { CurrentUserInfo } from '@shared/api-types';
import { Role, ROLE_CODES, ROLE_NAMES } from '@shared/roles';
import { AppProvider, createQueryClient } from '@/app/provider';
import { tokenStore } from '@/lib/api';
import { toaster } from '@/components/ui/toaster';

// The machine is shared: give slow renders time before a find* gives up.
configure({ asyncUtilTimeout: 5000 });

export interface Call {
  method: string;
  /** The URL as passed to fetch (e.g. '/api/users/current'). */
  url: string;
  /** Without the leading slash, with the query string. */
  path: string;
  headers: Headers;
  /** Parsed JSON body, if any. */
  body: unknown;
  /** The body as sent (a File for uploads). */
  rawBody: unknown;
}

export interface Answer {
  status?: number;
  body?: unknown;
  /** Headers beside the JSON content type (e.g. Retry-After). */
  headers?: Record<string, string>;
}

type Reply = Answer | ((call: Call) => Answer);

/** What the real server answers a call it does not know without a session (the refresh without a cookie). */
export const NO_SESSION: Answer = {
  status: 401,
  body: { success: false, statusCode: 401, message: 'Authentication required.' },
};

const withoutSlash = (p: string) => p.replace(/^\//, '');

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string' || !body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * The one fake server of the component tests: `fetch` answers from a table keyed 'METHOD path' (the path
 * without the query string, with or without its leading slash; the query is in call.path) and from the
 * routes added later with `respond`/`respondWith` (a string path or a RegExp tested against '/path?query';
 * the latest added wins over older ones and over the table). Every call is recorded. A call nothing matches
 * gets `options.unmatched` (404 by default; NO_SESSION for the tests of the refresh rule).
 */
export function fakeServer(routes: Record<string, Reply> = {}, options: { unmatched?: Answer } = {}) {
  const calls: Call[] = [];
  const table = new Map(
    Object.entries(routes).map(([key, reply]) => {
      const [method, path] = key.split(' ');
      return [`${method.toUpperCase()} ${withoutSlash(path)}`, reply];
    }),
  );
  const added: Array<{ method: string; path: string | RegExp; reply: Reply }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const parsed = new URL(url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const pathname = withoutSlash(parsed.pathname);
    const path = pathname + parsed.search;
    const call: Call = {
      method,
      url,
      path,
      headers: new Headers(init?.headers),
      body: parseBody(init?.body),
      rawBody: init?.body,
    };
    calls.push(call);
    const dynamic = [...added]
      .reverse()
      .find(
        (r) =>
          r.method === method &&
          (typeof r.path === 'string' ? withoutSlash(r.path) === pathname : r.path.test(`/${path}`)),
      );
    const reply = dynamic?.reply ?? table.get(`${method} ${pathname}`);
    const unmatched = options.unmatched ?? {
      status: 404,
      body: { success: false, message: `no route ${method} ${path}` },
    };
    const r = typeof reply === 'function' ? reply(call) : (reply ?? unmatched);
    return new Response(r.body === undefined ? '' : JSON.stringify(r.body), {
      status: r.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...r.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (method: string, prefix: string) =>
      calls.filter((c) => c.method === method && c.path.startsWith(withoutSlash(prefix))),
    respond(method: string, path: string | RegExp, status: number, body?: unknown) {
      added.push({ method: method.toUpperCase(), path, reply: { status, body } });
    },
    respondWith(method: string, path: string | RegExp, answer: (call: Call) => Answer) {
      added.push({ method: method.toUpperCase(), path, reply: answer });
    },
  };
}

export function currentUser(roles: Role[], patch: Partial<CurrentUserInfo> = {}): CurrentUserInfo {
  return {
    id: 1,
    firstName: 'Ada',
    lastName: 'Admin',
    email: 'ada@example.com',
    organisationId: 10,
    organisationCode: 'ACME',
    masterAccountName: 'Acme Pty Ltd',
    applications: ['TAX_MANAGER', 'CA_VIEWER'],
    roles: roles.map((r) => ({ roleId: r, roleCode: ROLE_CODES[r], roleName: ROLE_NAMES[r] })),
    isMFAEnforced: false,
    isMFAEnabled: false,
    isSSO: false,
    hasPasskey: false,
    ...patch,
  };
}

/**
 * Renders a page signed in (a token in storage; api/users/current must be in the fake server's table) at
 * `path`, mounted on `routePath`; any other path renders a marker (data-testid 'elsewhere').
 */
export function renderPage(
  path: string,
  routePath: string,
  element: ReactNode,
  extraRoutes: Array<{ path: string; element: ReactNode }> = [],
) {
  tokenStore.set('test-token');
  toaster.remove();
  const router = createMemoryRouter(
    [
      { path: routePath, element },
      ...extraRoutes,
      { path: '*', element: <div data-testid="elsewhere">elsewhere</div> },
    ],
    { initialEntries: [path] },
  );
  const utils = render(
    <AppProvider queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...utils, router };
}

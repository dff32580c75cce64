import { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, vi } from 'vitest';
import type { CurrentUserInfo } from '@shared/api-types';
import { Role, ROLE_CODES, ROLE_NAMES } from '@shared/roles';
import { AppProvider, createQueryClient } from '@/app/provider';
import { tokenStore } from '@/lib/api';
import { toaster } from '@/components/ui/toaster';

// The machine is shared: give slow renders time before a find* gives up.
configure({ asyncUtilTimeout: 5000 });
// The toaster is one store for the whole run: start every test without the last one's toasts.
afterEach(() => toaster.remove());

export interface Call {
  method: string;
  /** Without the leading slash, with the query string. */
  path: string;
  /** Parsed JSON body, if any. */
  body: unknown;
  /** The body as sent (a File for uploads). */
  rawBody: unknown;
}

type Reply = { status?: number; body?: unknown } | ((call: Call) => { status?: number; body?: unknown });

/**
 * A fake server for component tests: `fetch` answers from a table keyed 'METHOD path' (path without
 * the query string; the query is in call.path), and records every call.
 */
export function fakeServer(routes: Record<string, Reply>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\//, '') + url.search;
    const body = typeof init?.body === 'string' && init.body ? JSON.parse(init.body) : undefined;
    const call = { method, path, body, rawBody: init?.body };
    calls.push(call);
    const reply = routes[`${method} ${url.pathname.replace(/^\//, '')}`];
    const r = typeof reply === 'function' ? reply(call) : (reply ?? { status: 404, body: { success: false, message: `no route ${method} ${path}` } });
    return new Response(r.body === undefined ? '' : JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (method: string, prefix: string) => calls.filter((c) => c.method === method && c.path.startsWith(prefix)),
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
export function renderPage(path: string, routePath: string, element: ReactNode, extraRoutes: Array<{ path: string; element: ReactNode }> = []) {
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

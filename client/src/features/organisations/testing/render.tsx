import { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, vi } from 'vitest';
import type { CurrentUserInfo } from '@shared/api-types';
import { Role, ROLE_CODES, ROLE_NAMES } from '@shared/roles';
import { AppProvider, createQueryClient } from '@/app/provider';
import { toaster } from '@/components/ui/toaster';
import { tokenStore } from '@/lib/api';

// The machine is shared: give slow renders time before a find* gives up.
configure({ asyncUtilTimeout: 5000 });
// The toaster is one store for the whole run: start every test without the last one's toasts.
afterEach(() => toaster.remove());

export interface Call {
  method: string;
  path: string;
  body: unknown;
  rawBody: unknown;
}
type Reply = { status?: number; body?: unknown } | ((call: Call) => { status?: number; body?: unknown });

/** A fake server: `fetch` answers from a table keyed 'METHOD path' (no leading slash, no query) and records each call. */
export function fakeServer(routes: Record<string, Reply>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init?.method ?? 'GET').toUpperCase();
      const path = url.pathname.replace(/^\//, '');
      const call = { method, path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined, rawBody: init?.body };
      calls.push(call);
      const reply = routes[`${method} ${path}`];
      const r = typeof reply === 'function' ? reply(call) : (reply ?? { status: 404, body: { success: false, message: `no route ${method} ${path}` } });
      return new Response(r.body === undefined ? '' : JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return { calls, callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
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
    ...patch,
  };
}

/** Renders a page signed in; other paths render a marker with the path. */
export function renderPage(path: string, element: ReactNode) {
  tokenStore.set('test-token');
  const router = createMemoryRouter(
    [
      { path, element },
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

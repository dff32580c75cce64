import { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouteObject, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { AppProvider } from '@/app/provider';

/** Renders routes inside the real providers, at `path`. */
export function renderRoutes(routes: RouteObject[], path = '/') {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const utils = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...utils, router };
}

export function renderAt(element: ReactElement, path = '/') {
  return renderRoutes([{ path: '*', element }], path);
}

export interface MockCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/**
 * Replaces fetch with a router of canned answers: `respond(method, path, status, body)`. Unmatched calls
 * answer 401 (like the server's refresh without a cookie). Returns the log of calls.
 */
export function mockFetch() {
  const calls: MockCall[] = [];
  const routes: Array<{ method: string; path: string | RegExp; answer: () => { status: number; body: unknown } }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    calls.push({ url, method, headers: new Headers(init?.headers), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const route = [...routes].reverse().find((r) => r.method === method && (typeof r.path === 'string' ? path.split('?')[0] === r.path : r.path.test(path)));
    const { status, body } = route ? route.answer() : { status: 401, body: { success: false, statusCode: 401, message: 'Authentication required.' } };
    return new Response(body === undefined ? '' : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    respond(method: string, path: string | RegExp, status: number, body?: unknown) {
      routes.push({ method, path, answer: () => ({ status, body }) });
    },
    respondWith(method: string, path: string | RegExp, answer: () => { status: number; body: unknown }) {
      routes.push({ method, path, answer });
    },
  };
}

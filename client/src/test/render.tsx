import { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouteObject, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
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

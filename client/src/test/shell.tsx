/**
 * Test helpers for the shell's component tests: a signed-in user of any role (the auth context is
 * replaced by vi.mock in each test file, reading `authState`), the providers (the fetch fake is test/fake-server.tsx).
 */
import { ReactElement } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouteObject, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { AppInfo, CurrentUserInfo } from '@shared/api-types';
import { ALL_ROLES, Role, ROLE_CODES, ROLE_NAMES } from '@shared/roles';
import { system } from '@/app/theme';
import { queryKeys } from '@/lib/query-keys';
import { Toaster } from '@/components/ui/toaster';

export interface FakeAuth {
  token: string | null;
  isAuthenticated: boolean;
  user: CurrentUserInfo | undefined;
  userLoading: boolean;
  userError: unknown;
  roles: Role[];
  signIn: (t: string) => void;
  signOut: (reason?: string) => Promise<void>;
}

export function userWith(roles: Role[], overrides: Partial<CurrentUserInfo> = {}): CurrentUserInfo {
  return {
    id: 7,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    organisationId: 3,
    organisationCode: 'ACME',
    masterAccountName: 'Acme Pty Ltd',
    applications: ['TAX_MANAGER', 'CA_VIEWER'],
    roles: roles.map((r) => ({ roleId: r, roleCode: ROLE_CODES[r], roleName: ROLE_NAMES[r] })),
    isMFAEnforced: false,
    isMFAEnabled: true,
    isSSO: false,
    hasPasskey: false,
    ...overrides,
  };
}

export const authState: { current: FakeAuth } = { current: signedOut() };

export function signedIn(roles: Role[], overrides: Partial<CurrentUserInfo> = {}): FakeAuth {
  return {
    token: 'token',
    isAuthenticated: true,
    user: userWith(roles, overrides),
    userLoading: false,
    userError: null,
    roles,
    signIn: vi.fn(),
    signOut: vi.fn(async () => {}),
  };
}

export function signedOut(): FakeAuth {
  return {
    token: null,
    isAuthenticated: false,
    user: undefined,
    userLoading: false,
    userError: null,
    roles: [],
    signIn: vi.fn(),
    signOut: vi.fn(async () => {}),
  };
}

/** Every role as the role matrix has it: the administrator is a standard admin with the admin flag. */
export const ROLE_CASES: Array<[string, Role[]]> = ALL_ROLES.map((r) => [
  ROLE_CODES[r],
  r === Role.ADMINISTRATOR ? [Role.STANDARD_ADMIN, Role.ADMINISTRATOR] : [r],
]);

export function renderRoutes(
  routes: RouteObject[],
  initialPath: string,
  options: { appInfo?: Partial<AppInfo>; queryClient?: QueryClient } = {},
) {
  const queryClient = options.queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(queryKeys.appInfo, {
    productName: 'Tax Portal',
    version: '1.0.0',
    appEnv: 'production',
    ssoEnabled: false,
    supportEmail: 's@x',
    ...options.appInfo,
  });
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const utils = render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return { ...utils, router, queryClient };
}

export function renderAt(
  ui: ReactElement,
  path = '/',
  options: { appInfo?: Partial<AppInfo>; queryClient?: QueryClient } = {},
) {
  return renderRoutes([{ path: '*', element: ui }], path, options);
}

/**
 * Chooses a menu entry the way a keyboard user does (jsdom does not deliver the pointer sequence Ark's
 * menu selects on; real clicks are covered by the browser tests). The entry is found by role and name and
 * the arrow key is pressed until that entry is the highlighted one: the menu's own first highlight is
 * asynchronous, so counting key presses would flake.
 */
export async function chooseMenuItem(menu: HTMLElement, name: string) {
  const { default: userEvent } = await import('@testing-library/user-event');
  const { within } = await import('@testing-library/react');
  const item = await within(menu).findByRole('menuitem', { name });
  const highlighted = () => item.hasAttribute('data-highlighted');
  const steps = within(menu).getAllByRole('menuitem').length * 2;
  for (let i = 0; i < steps && !highlighted(); i++) await userEvent.keyboard('{ArrowDown}');
  if (!highlighted()) throw new Error(`menu entry ${name} never became highlighted`);
  await userEvent.keyboard('{Enter}');
}

import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hasAnyRole, Role } from '@shared/roles';
import { PLACEHOLDER_AREAS } from '@/features/portal/placeholder-areas/areas';
import { shellRoutes } from './shell-routes';
import { authState, renderRoutes, ROLE_CASES, signedIn, signedOut } from '@/test/shell';
import { fakeServer } from '@/test/fake-server';

vi.mock('@/lib/auth', async (importOriginal) => {
  const { authState: state } = await import('@/test/shell');
  return { ...(await importOriginal<object>()), useAuth: () => state.current };
});

const routes = [{ path: '/', children: shellRoutes }];
const concrete = (path: string) => `/${path.replace(':portfolioId', '42')}`;

describe('routes of areas the specification does not show keep their role rules (spec 001 §2.1)', () => {
  beforeEach(() => {
    authState.current = signedOut();
  });

  for (const area of PLACEHOLDER_AREAS) {
    describe(concrete(area.path), () => {
      it.each(ROLE_CASES)('%s', async (_code, roles) => {
        authState.current = signedIn(roles);
        renderRoutes(routes, concrete(area.path));
        if (hasAnyRole(roles, area.roles)) {
          expect(
            await screen.findByText(
              'This area belongs to the Tax Manager application and is not part of this release.',
            ),
          ).toBeInTheDocument();
          expect(screen.getByRole('heading', { level: 2, name: area.title })).toBeInTheDocument();
        } else {
          expect(await screen.findByText('You do not have access to this page.')).toBeInTheDocument();
        }
      });
    });
  }

  it('an organisation without the Tax Manager application is told it has no access', async () => {
    authState.current = signedIn([Role.SITE_ADMIN], { applications: ['CA_VIEWER'] });
    renderRoutes(routes, '/clients');
    expect(await screen.findByText('You do not have access to this page.')).toBeInTheDocument();
  });

  it.each(ROLE_CASES)('%s opens about, announcements and user manual', async (_code, roles) => {
    authState.current = signedIn(roles);
    fakeServer({}, { unmatched: { status: 200, body: [] } });
    for (const [path, heading] of [
      ['/about', 'About'],
      ['/announcements', 'Announcements'],
      ['/user-manual', 'User Manual'],
    ]) {
      const r = renderRoutes(routes, path);
      expect(await screen.findByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
      r.unmount();
    }
  });
});

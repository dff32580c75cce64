import type { RouteObject } from 'react-router';
import { RequireRoles } from './require-roles';
import { PLACEHOLDER_AREAS } from '@/features/portal/placeholder-areas/areas';

/** The shell's signed-in routes (spec 001 §2.1), every page lazy; role-restricted ones through RequireRoles. */
export const shellRoutes: RouteObject[] = [
  {
    path: 'about',
    lazy: () => import('@/features/portal/about/components/AboutPage').then((m) => ({ Component: m.AboutPage })),
  },
  {
    path: 'announcements',
    lazy: () =>
      import('@/features/portal/announcements/components/AnnouncementsPage').then((m) => ({
        Component: m.AnnouncementsPage,
      })),
  },
  {
    path: 'user-manual',
    lazy: () =>
      import('@/features/portal/manual/components/UserManualPage').then((m) => ({ Component: m.UserManualPage })),
  },
  ...PLACEHOLDER_AREAS.map((area): RouteObject => ({
    path: area.path,
    lazy: () =>
      import('@/features/portal/placeholder-areas/components/PlaceholderAreaPage').then((m) => ({
        element: (
          <RequireRoles roles={area.roles} application={area.application}>
            <m.PlaceholderAreaPage title={area.title} summary={area.summary} />
          </RequireRoles>
        ),
      })),
  })),
];

/** Public legal pages (no login). */
export const legalRoutes: RouteObject[] = [
  {
    lazy: () => import('./layout/PublicLayout').then((m) => ({ Component: m.PublicLayout })),
    children: [
      {
        path: '/terms/terms',
        lazy: () => import('@/features/portal/legal/components/TermsPage').then((m) => ({ Component: m.TermsPage })),
      },
      {
        path: '/terms/privacy',
        lazy: () =>
          import('@/features/portal/legal/components/PrivacyPage').then((m) => ({ Component: m.PrivacyPage })),
      },
    ],
  },
];

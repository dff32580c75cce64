import type { RouteObject } from 'react-router';
import { NotFoundPage } from '@/features/misc/NotFoundPage';

/**
 * The route table of spec 001 §2.1. Every screen but the login page is loaded lazily, so the login
 * page downloads only what it needs.
 */
export const publicRoutes: RouteObject[] = [
  { path: '/resetPassword', lazy: () => import('@/features/auth/components/ResetPasswordPage').then((m) => ({ Component: m.ResetPasswordPage })) },
];

export const protectedRoutes: RouteObject[] = [
  { index: true, lazy: () => import('@/features/dashboard/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
  // routes:users (user list, roles, profile, new user, user groups of a user)
  // routes:organisation (billing, user sessions, create site admin, create e-support)
  // routes:shell (about, announcements, user manual, user groups, clients, portfolios, activities, ...)
  { path: '*', element: <NotFoundPage /> },
];

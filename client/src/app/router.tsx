import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { LoginPage } from '@/features/identity/auth/components/LoginPage';
import { RequireAuth } from './require-auth';
import { protectedRoutes, publicRoutes } from './routes';

export const router = createBrowserRouter([
  { path: '/logIn', element: <LoginPage /> },
  ...publicRoutes,
  { path: '/callback', element: <Navigate to="/" replace /> },
  {
    // The signed-in shell loads lazily: the login page carries none of it.
    lazy: () =>
      import('@/app/layout/AppLayout').then((m) => ({
        element: (
          <RequireAuth>
            <m.AppLayout />
          </RequireAuth>
        ),
      })),
    children: protectedRoutes,
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}

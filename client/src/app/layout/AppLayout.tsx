import { Box } from '@chakra-ui/react';
import { Outlet, useLocation } from 'react-router';
import { AnnouncementBanner } from '@/features/portal/announcements/components/AnnouncementBanner';
import { Breadcrumbs } from '@/features/portal/breadcrumbs/components/Breadcrumbs';
import { SupportSessionBanner } from '@/features/portal/support-access';
import { LoadingBar } from './LoadingBar';
import { Header, useHeaderPadding } from './Header';

/**
 * The signed-in shell: the loading bar, the fixed header, the support-access session's banner, the announcement
 * banner, breadcrumbs and the page.
 */
export function AppLayout() {
  const location = useLocation();
  const padding = useHeaderPadding();
  return (
    <Box minH="100vh">
      <LoadingBar />
      <Header />
      <Box as="main" pt={`${padding}px`} px={{ base: '3', md: '6' }} pb="10" maxW="1600px" mx="auto">
        <SupportSessionBanner />
        <AnnouncementBanner />
        <Breadcrumbs />
        {/* Keyed by the navigation: navigating to the same URL again reloads the page (spec 001 §2.1). */}
        <Box key={location.key} pt="4">
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}

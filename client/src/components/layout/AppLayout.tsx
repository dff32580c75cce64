import { Box } from '@chakra-ui/react';
import { Outlet, useLocation } from 'react-router';
import { Header, HEADER_HEIGHT } from './Header';

/** The signed-in shell: the fixed header and the page below it. */
export function AppLayout() {
  const location = useLocation();
  return (
    <Box minH="100vh">
      <Header />
      <Box as="main" pt={`${HEADER_HEIGHT}px`} px={{ base: '3', md: '6' }} pb="10" maxW="1600px" mx="auto">
        {/* Keyed by the navigation: navigating to the same URL again reloads the page (spec 001 §2.1). */}
        <Box key={location.key} pt="4">
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}

import { Box } from '@chakra-ui/react';
import { Outlet } from 'react-router';
import { Header } from './Header';

/** The public pages' frame (no login): the header with the profile menu (logged out: Give Feedback, Log In). */
export function PublicLayout() {
  return (
    <Box minH="100vh">
      <Header />
      <Outlet />
    </Box>
  );
}

import { Box, Flex, HStack, Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { SHELL_LIMITS } from '@shared/portal/shell';
import { CaViewerNotice } from './CaViewerNotice';
import { CogMenu } from './CogMenu';
import { CompactModeSwitch } from './CompactModeSwitch';
import { MainMenu, MobileMenu } from './MainMenu';
import { showsCaViewerNotice } from '@/config/menu-model';
import { useAuth } from '@/lib/auth';
import { NotificationBell } from '@/features/portal/notifications/components/NotificationBell';
import { HeaderLogo } from '@/features/administration/logo/components/HeaderLogo';
import { ProfileMenu } from './ProfileMenu';

/** Spec 001 §9: header top padding 70 px, or 110 px with the limited-role notice. */
export const HEADER_HEIGHT = SHELL_LIMITS.HEADER_PADDING_PX;
export const HEADER_HEIGHT_WITH_NOTICE = SHELL_LIMITS.HEADER_PADDING_WITH_NOTICE_PX;

/** The padding the page below the header needs. */
export function useHeaderPadding(): number {
  const { roles, user } = useAuth();
  return showsCaViewerNotice(roles, user?.applications ?? []) ? HEADER_HEIGHT_WITH_NOTICE : HEADER_HEIGHT;
}

/** The fixed top bar (spec 001 §2.2): logo home, main menu, compact mode, bell, cog, profile; the CA Viewer notice below. */
export function Header() {
  const { roles, user, isAuthenticated } = useAuth();
  return (
    <Box
      as="header"
      position="fixed"
      top="0"
      insetX="0"
      zIndex="sticky"
      bg="bg"
      borderBottomWidth="1px"
      shadow="xs"
      data-testid="app-header"
    >
      <Flex h="60px" px={{ base: '3', md: '6' }} align="center" justify="space-between" gap="4">
        <HStack gap="2">
          {isAuthenticated && <MobileMenu />}
          <Link asChild _hover={{ textDecoration: 'none' }}>
            <RouterLink to="/" aria-label="Tax Portal home">
              <HStack gap="2">
                <HeaderLogo />
                <Text fontWeight="bold" display={{ base: 'none', lg: 'block' }}>
                  Tax Portal
                </Text>
              </HStack>
            </RouterLink>
          </Link>
          {isAuthenticated && <MainMenu />}
        </HStack>
        <HStack gap="2">
          {isAuthenticated && <CompactModeSwitch />}
          {/* header-slot:controls (compact mode, notifications bell, cog menu) */}
          <NotificationBell />
          {isAuthenticated && <CogMenu />}
          <ProfileMenu />
        </HStack>
      </Flex>
      {isAuthenticated && showsCaViewerNotice(roles, user?.applications ?? []) && <CaViewerNotice />}
    </Box>
  );
}

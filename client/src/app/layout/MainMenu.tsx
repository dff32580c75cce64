import { useEffect, useRef, useState } from 'react';
import { Box, Button, HStack, IconButton, Link, VStack } from '@chakra-ui/react';
import { NavLink, useLocation } from 'react-router';
import { SHELL_LIMITS } from '@shared/portal/shell';
import { useAuth } from '@/lib/auth';
import { CloseIcon, MenuIcon } from '@/components/ui/icons';
import { mainMenuEntries } from '@/config/menu-model';

/** Spec 001 §9: the menubar auto-hide delay defaults to 100 ms (the type-ahead reset is in menu-typeahead.ts). */
export const MENU_AUTO_HIDE_DELAY_MS = SHELL_LIMITS.MENU_AUTO_HIDE_DELAY_MS;

function useMainMenu() {
  const { roles, user } = useAuth();
  return mainMenuEntries(roles, user?.applications ?? []);
}

/** The main menu on wide screens (spec 001 §2.2). */
export function MainMenu() {
  const entries = useMainMenu();
  return (
    <HStack as="nav" aria-label="Main menu" gap="1" display={{ base: 'none', md: 'flex' }} data-testid="main-menu">
      {entries.map((e) => (
        <Button key={e.label} asChild variant="ghost" size="sm">
          <NavLink to={e.to} end>
            {e.label}
          </NavLink>
        </Button>
      ))}
    </HStack>
  );
}

/** The mobile menu: a toggle, active or inactive; it hides itself shortly after a choice (auto-hide delay). */
export function MobileMenu() {
  const entries = useMainMenu();
  const [active, setActive] = useState(false);
  const location = useLocation();
  const shownAt = useRef(location.key);

  // After a navigation the menu hides itself, after the auto-hide delay.
  useEffect(() => {
    if (shownAt.current === location.key) return;
    shownAt.current = location.key;
    const timer = setTimeout(() => setActive(false), MENU_AUTO_HIDE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [location.key]);

  return (
    <Box display={{ base: 'block', md: 'none' }}>
      <IconButton
        variant="ghost"
        aria-label={active ? 'Close menu' : 'Open menu'}
        aria-expanded={active}
        onClick={() => setActive((a) => !a)}
        data-testid="mobile-menu-button"
      >
        {active ? <CloseIcon /> : <MenuIcon />}
      </IconButton>
      {active && (
        <VStack
          as="nav"
          aria-label="Mobile menu"
          data-testid="mobile-menu"
          data-active={active}
          position="fixed"
          top="60px"
          left="0"
          right="0"
          bg="bg"
          shadow="md"
          align="stretch"
          gap="0"
          py="2"
          zIndex="dropdown"
        >
          {entries.map((e) => (
            <Link key={e.label} asChild px="4" py="3" _hover={{ bg: 'bg.muted', textDecoration: 'none' }}>
              <NavLink to={e.to} end>
                {e.label}
              </NavLink>
            </Link>
          ))}
        </VStack>
      )}
    </Box>
  );
}

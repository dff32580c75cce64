import { Box, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { ChosenOrganisationPicker } from '@/components/ChosenOrganisationPicker';
import { organisationSettingsTabs } from '@/config/organisation-settings';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { OrganisationArea, useOrganisationScope } from '@/lib/organisation-scope';

export const ORGANISATION_SETTINGS_TEXTS = {
  TITLE: 'Organisation settings',
  ORGANISATION: 'Organisation',
  OWN_ORGANISATION: 'Your own organisation',
} as const;

/**
 * The organisation settings area (route /organisation-settings/<tab>): one place for the pages an organisation's
 * administrators use, as tabs (config/organisation-settings.ts). E-Support chooses the organisation once, here; it
 * stays in the address (?organisationId=) and every tab works on it.
 */
export function OrganisationSettingsLayout() {
  const { roles } = useAuth();
  const { organisationId } = useOrganisationScope();
  const { pathname } = useLocation();
  const tabs = organisationSettingsTabs(roles);
  const T = ORGANISATION_SETTINGS_TEXTS;

  return (
    <Stack gap="4" data-testid="organisation-settings">
      <Text fontSize="sm" color="fg.muted" fontWeight="semibold" textTransform="uppercase" letterSpacing="wide">
        {T.TITLE}
      </Text>
      <ChosenOrganisationPicker label={T.ORGANISATION} emptyLabel={T.OWN_ORGANISATION} testId="settings-organisation" />
      <Box as="nav" aria-label={T.TITLE} borderBottomWidth="1px">
        <HStack gap="1" flexWrap="wrap">
          {tabs.map((tab) => {
            const to = paths.organisationSettingsTab(tab.path, organisationId);
            const current = pathname === `${paths.organisationSettings}/${tab.path}`;
            return (
              <Link
                key={tab.path}
                asChild
                px="3"
                py="2"
                borderBottomWidth="2px"
                borderColor={current ? 'blue.600' : 'transparent'}
                fontWeight={current ? 'semibold' : 'normal'}
                color={current ? 'fg' : 'fg.muted'}
                _hover={{ color: 'fg', textDecoration: 'none' }}
              >
                <NavLink to={to} aria-current={current ? 'page' : undefined} data-testid={`settings-tab-${tab.path}`}>
                  {tab.label}
                </NavLink>
              </Link>
            );
          })}
        </HStack>
      </Box>
      <OrganisationArea>
        <Outlet />
      </OrganisationArea>
    </Stack>
  );
}

/** /organisation-settings alone: the first tab the user sees, for the same organisation. */
export function FirstOrganisationSettingsTab() {
  const { roles } = useAuth();
  const { organisationId } = useOrganisationScope();
  const first = organisationSettingsTabs(roles)[0];
  if (!first) return null;
  return <Navigate to={paths.organisationSettingsTab(first.path, organisationId)} replace />;
}

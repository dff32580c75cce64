import { Alert, Box, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { CAPABILITY_ROLES, Role } from '@shared/roles';
import { OrganisationPicker } from '@/components/ui/organisation-picker';
import { PageHeader } from '@/components/ui/page-header';
import { useOrganisationChoices } from '@/lib/organisation-choices';
import { useOrganisationScope } from '@/lib/organisation-scope';
import { useAuth } from '@/lib/auth';
import { useHasRole } from '@/lib/authorization';
import { SSO_PAGE_TEXTS as T } from '../federation-texts';
import { ConnectionsSection } from './ConnectionsSection';
import { DomainsSection } from './DomainsSection';
import { TestResultPanel } from './TestResultPanel';

/**
 * Route users/sso: the organisation's identity providers and verified domains. Site admins change them,
 * administrators read them; E-Support picks any organisation (?organisationId=).
 */
export function SsoPage() {
  const { roles } = useAuth();
  const support = roles.includes(Role.E_SUPPORT);
  const canEdit = useHasRole(CAPABILITY_ROLES.SSO_SETTINGS_MANAGE);
  const [params, setParams] = useSearchParams();
  const scope = useOrganisationScope();
  const organisationId = (support && scope.organisationId) || null;
  const organisations = useOrganisationChoices(support && !scope.inArea);
  // Back from 'Test connection': ?connection=<id>&ssoTest=<key> names the result to show.
  const testKey = params.get('ssoTest');
  const testConnection = Number(params.get('connection'));
  const closeTest = () =>
    setParams((p) => {
      p.delete('ssoTest');
      p.delete('connection');
      return p;
    });

  return (
    <Box data-testid="sso-page">
      <PageHeader title={T.TITLE} />
      <Stack gap="5">
        <Text color="fg.muted">{T.INTRO}</Text>
        {support && !scope.inArea && (
          <OrganisationPicker
            label={T.ORGANISATION}
            organisations={organisations.data}
            emptyLabel={T.OWN_ORGANISATION}
            testId="sso-organisation"
            value={organisationId === null ? '' : String(organisationId)}
            onChange={(e) => setParams(e.target.value ? { organisationId: e.target.value } : {})}
          />
        )}
        {!canEdit && (
          <Alert.Root status="info" data-testid="sso-read-only">
            <Alert.Indicator />
            <Alert.Title>{T.READ_ONLY}</Alert.Title>
          </Alert.Root>
        )}
        {testKey && testConnection > 0 && (
          <TestResultPanel connectionId={testConnection} resultKey={testKey} onClose={closeTest} />
        )}
        <ConnectionsSection organisationId={organisationId} canEdit={canEdit} />
        <DomainsSection organisationId={organisationId} canEdit={canEdit} />
      </Stack>
    </Box>
  );
}

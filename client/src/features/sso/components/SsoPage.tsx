import { Alert, Box, Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { CAPABILITY_ROLES, Role } from '@shared/roles';
import { PageHeader } from '@/components/ui/page-header';
import { useAuth } from '@/lib/auth';
import { useHasRole } from '@/lib/authorization';
import { useOrganisationChoices } from '../api/sso-api';
import { SSO_PAGE_TEXTS as T } from '../texts';
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
  const organisationId = (support && Number(params.get('organisationId'))) || null;
  const organisations = useOrganisationChoices(support);
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
        {support && (
          <Field.Root maxW="md">
            <Field.Label>{T.ORGANISATION}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                data-testid="sso-organisation"
                value={organisationId === null ? '' : String(organisationId)}
                onChange={(e) => setParams(e.target.value ? { organisationId: e.target.value } : {})}
              >
                <option value="">{T.OWN_ORGANISATION}</option>
                {organisations.data?.map((o) => (
                  <option key={o.id} value={String(o.id)}>
                    {o.name} ({o.code})
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
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

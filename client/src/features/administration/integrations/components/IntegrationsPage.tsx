import { Box, Separator, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { Role } from '@shared/roles';
import { OrganisationPicker } from '@/components/ui/organisation-picker';
import { PageHeader } from '@/components/ui/page-header';
import { useAuth } from '@/lib/auth';
import { useOrganisationChoices } from '@/lib/organisation-choices';
import { useOrganisationScope } from '@/lib/organisation-scope';
import { INTEGRATIONS_TEXTS as T } from '../integrations-texts';
import { ApiKeysSection } from './ApiKeysSection';
import { LogStreamsSection } from './LogStreamsSection';
import { WebhooksSection } from './WebhooksSection';

/**
 * Route users/integrations: the organisation's API keys, webhook endpoints and audit log streams, for its site admin;
 * E-Support picks an organisation (?organisationId=), or works on the deployment-wide log streams without one.
 * Every create, rotate, test and remove is a sensitive call: the API client asks the step-up dialog and retries.
 */
export function IntegrationsPage() {
  const { roles, user } = useAuth();
  const support = roles.includes(Role.E_SUPPORT);
  const [, setParams] = useSearchParams();
  const scope = useOrganisationScope();
  const organisationId = (support && scope.organisationId) || undefined;
  // In the organisation settings area, its one picker chooses the organisation.
  const organisations = useOrganisationChoices(support && !scope.inArea);
  // E-Support's own organisation is the vendor's, which has no keys or webhooks of its own.
  const perOrganisation = !!user && (!support || organisationId !== undefined);

  return (
    <Box data-testid="integrations-page">
      <PageHeader title={T.TITLE} />
      <Stack gap="6" maxW="5xl">
        <Text color="fg.muted">{T.INTRO}</Text>
        {support && !scope.inArea && (
          <OrganisationPicker
            label={T.ORGANISATION}
            organisations={organisations.data}
            emptyLabel={T.OWN_ORGANISATION}
            testId="integrations-organisation"
            value={organisationId === undefined ? '' : String(organisationId)}
            onChange={(e) => setParams(e.target.value ? { organisationId: e.target.value } : {})}
          />
        )}
        {perOrganisation ? (
          <>
            <ApiKeysSection organisationId={organisationId} enabled />
            <Separator />
            <WebhooksSection organisationId={organisationId} enabled />
          </>
        ) : (
          support && <Text data-testid="integrations-pick">{T.SUPPORT_PICK}</Text>
        )}
        <Separator />
        <LogStreamsSection
          organisationId={organisationId}
          enabled={!!user}
          deploymentWide={support && organisationId === undefined}
        />
      </Stack>
    </Box>
  );
}

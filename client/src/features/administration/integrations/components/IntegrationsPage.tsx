import { Separator, Text } from '@chakra-ui/react';
import { OrganisationPage } from '@/components/OrganisationPage';
import { useAuth } from '@/lib/auth';
import { useChosenOrganisation } from '@/lib/organisation-scope';
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
  const { user } = useAuth();
  const { support, organisationId } = useChosenOrganisation();
  // E-Support's own organisation is the vendor's, which has no keys or webhooks of its own.
  const perOrganisation = !!user && (!support || organisationId !== undefined);

  return (
    <OrganisationPage name="integrations" texts={T} picker gap="6" maxW="5xl">
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
    </OrganisationPage>
  );
}

import { Box, Field, NativeSelect, Separator, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { Role } from '@shared/roles';
import { PageHeader } from '@/components/ui/page-header';
import { useAuth } from '@/lib/auth';
import { useOrganisationChoices } from '../api/integrations-api';
import { INTEGRATIONS_TEXTS as T } from '../texts';
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
  const [params, setParams] = useSearchParams();
  const organisationId = (support && Number(params.get('organisationId'))) || undefined;
  const organisations = useOrganisationChoices(support);
  // E-Support's own organisation is the vendor's, which has no keys or webhooks of its own.
  const perOrganisation = !!user && (!support || organisationId !== undefined);

  return (
    <Box data-testid="integrations-page">
      <PageHeader title={T.TITLE} />
      <Stack gap="6" maxW="5xl">
        <Text color="fg.muted">{T.INTRO}</Text>
        {support && (
          <Field.Root maxW="md">
            <Field.Label>{T.ORGANISATION}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                data-testid="integrations-organisation"
                value={organisationId === undefined ? '' : String(organisationId)}
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

import { useSearchParams } from 'react-router';
import { CAPABILITY_ROLES } from '@shared/roles';
import { OrganisationPage } from '@/components/OrganisationPage';
import { useHasRole } from '@/lib/authorization';
import { useChosenOrganisation } from '@/lib/organisation-scope';
import { SSO_PAGE_TEXTS as T } from '../federation-texts';
import { ConnectionsSection } from './ConnectionsSection';
import { DomainsSection } from './DomainsSection';
import { TestResultPanel } from './TestResultPanel';

/**
 * Route users/sso: the organisation's identity providers and verified domains. Site admins change them,
 * administrators read them; E-Support picks any organisation (?organisationId=).
 */
export function SsoPage() {
  const canEdit = useHasRole(CAPABILITY_ROLES.SSO_SETTINGS_MANAGE);
  const [params, setParams] = useSearchParams();
  const organisationId = useChosenOrganisation().organisationId ?? null;
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
    <OrganisationPage name="sso" texts={T} picker readOnly={!canEdit} gap="5">
      {testKey && testConnection > 0 && (
        <TestResultPanel connectionId={testConnection} resultKey={testKey} onClose={closeTest} />
      )}
      <ConnectionsSection organisationId={organisationId} canEdit={canEdit} />
      <DomainsSection organisationId={organisationId} canEdit={canEdit} />
    </OrganisationPage>
  );
}

import { useSearchParams } from 'react-router';
import { useOrganisationChoices } from '@/lib/organisation-choices';
import { useChosenOrganisation } from '@/lib/organisation-scope';
import { OrganisationPicker } from './ui/organisation-picker';

export interface ChosenOrganisationPickerTexts {
  label: string;
  /** The option for none chosen (e.g. 'My organisation', 'Choose an organisation'). */
  emptyLabel: string;
  testId?: string;
}

/**
 * E-Support's choice of the organisation a page works on, kept in the address (?organisationId=); nothing for anyone
 * else, nor inside the organisation settings area, whose one picker chooses for every tab.
 */
export function ChosenOrganisationPicker(texts: ChosenOrganisationPickerTexts) {
  const { support, organisationId, inArea } = useChosenOrganisation();
  const [, setParams] = useSearchParams();
  const organisations = useOrganisationChoices(support && !inArea);
  if (!support || inArea) return null;
  return (
    <OrganisationPicker
      {...texts}
      organisations={organisations.data}
      value={organisationId === undefined ? '' : String(organisationId)}
      onChange={(e) => setParams(e.target.value ? { organisationId: e.target.value } : {})}
    />
  );
}

import { createContext, useContext, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Role } from '@shared/roles';
import { useAuth } from './auth';

/** The organisation a page works on: E-Support names it with ?organisationId=; everyone else works on their own. */
export interface OrganisationScope {
  /** The organisation named in the address, or undefined for the caller's own. */
  organisationId: number | undefined;
  /** The page is a tab of the organisation settings area, whose picker chooses the organisation for every tab. */
  inArea: boolean;
}

const AreaContext = createContext(false);

/** Marks its pages as tabs of the organisation settings area (which shows the one organisation picker). */
export function OrganisationArea({ children }: { children: ReactNode }) {
  return <AreaContext.Provider value={true}>{children}</AreaContext.Provider>;
}

export function useOrganisationScope(): OrganisationScope {
  const [params] = useSearchParams();
  const inArea = useContext(AreaContext);
  return { organisationId: Number(params.get('organisationId')) || undefined, inArea };
}

/**
 * The organisation E-Support chose (?organisationId=), or undefined: E-Support on its own (the vendor's) or anyone
 * else, who always works on their own. `support` says whether the caller is E-Support.
 */
export function useChosenOrganisation(): OrganisationScope & { support: boolean } {
  const { roles } = useAuth();
  const support = roles.includes(Role.E_SUPPORT);
  const scope = useOrganisationScope();
  return { support, organisationId: (support && scope.organisationId) || undefined, inArea: scope.inArea };
}

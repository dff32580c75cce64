import { createContext, useContext, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

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

import { useQuery } from '@tanstack/react-query';
import type { ContactProfile } from '@shared/api-types';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export type ContactKind = 'primary' | 'billing';

/** Spec 001 §7: each contact has its own path; POST when there is no id, PUT when there is. */
export const CONTACT_PATHS: Record<ContactKind, string> = {
  primary: 'api/primaryBillingInformation',
  billing: 'api/billingInformation',
};

export const EMPTY_CONTACT: ContactProfile = {
  id: null,
  fullName: '',
  jobTitle: '',
  department: '',
  basedIn: '',
  email: '',
  mobile: '',
};

/** Values trimmed before saving (spec 001 §5). */
export function trimContact(c: ContactProfile): ContactProfile {
  return {
    id: c.id,
    fullName: c.fullName.trim(),
    jobTitle: c.jobTitle.trim(),
    department: c.department.trim(),
    basedIn: c.basedIn.trim(),
    email: c.email.trim(),
    mobile: c.mobile.trim(),
  };
}

export const billingApi = {
  read: (kind: ContactKind) => api.get<ContactProfile>(`${CONTACT_PATHS[kind]}/byMasterAccountId`),
  save: (kind: ContactKind, contact: ContactProfile) => {
    const { id, ...fields } = trimContact(contact);
    return id === null
      ? api.post<ContactProfile>(CONTACT_PATHS[kind], fields)
      : api.put<ContactProfile>(CONTACT_PATHS[kind], { id, ...fields });
  },
};

export function useContact(kind: ContactKind) {
  return useQuery({
    queryKey: queryKeys.billingContact(kind),
    queryFn: () => billingApi.read(kind),
    retry: false,
    staleTime: 0,
  });
}

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  NewUserPayload,
  NewUserResult,
  OrganisationInfo,
  SingleUser,
  SuccessResult,
  UpdateProfilePayload,
  UserListPage,
  UserListQuery,
} from '@shared/api-types';
import type { SuccessMessage } from '@shared/api-answers';
import { api, querySearch } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export type ProfileFields = UpdateProfilePayload;
export type { NewUserPayload, OrganisationInfo };

/** The query string of GET api/users: only the fields that are set. */
export const userListSearch: (query: UserListQuery) => string = querySearch;

/** Every call of spec 000 §7 that the user administration screens make. */
export const usersApi = {
  list: (query: UserListQuery) => api.get<UserListPage>(`api/users${userListSearch(query)}`),
  byId: (id: number | string) => api.get<SingleUser>(`api/users/byId/${id}`),
  updateRole: (userId: number, newUserRoleIds: number[]) =>
    api.put<SuccessResult>('api/users/updateRole', { userId, newUserRoleIds }),
  enforceMfa: (userId: number, isMFAEnforced: boolean) =>
    api.put<SuccessResult>('api/users/enforceMFA', { userId, isMFAEnforced }),
  updateSsoStatus: (userId: number, isSSOEnabled: boolean) =>
    api.put<SuccessResult>('api/users/updateSsoStatus', { userId, isSSOEnabled }),
  disableUser: (userId: number, isDisabled: boolean) =>
    api.put<SuccessResult>('api/users/disableUser', { userId, isDisabled }),
  disableUserMfa: (userId: number) => api.put<SuccessResult>('api/mfa/disableUserMfa', { userId }),
  updateUser: (fields: ProfileFields) => api.put<SuccessResult>('api/users/updateUser', fields),
  updatePassword: (userPassword: string, currentPassword: string) =>
    api.patch<SuccessResult>('api/users/updatePassword', { userPassword, currentPassword }),
  add: (payload: NewUserPayload) => api.post<NewUserResult>('api/users/add', payload),
  organisation: () => api.get<OrganisationInfo>('auth/organisation'),
  /** Erases an account whose access is off (docs/privacy.md); a sensitive call, so the step-up dialog may ask first. */
  erase: (userId: number) => api.post<SuccessMessage>(`api/users/${userId}/erase`),
  lastLogin: (userId: number | string) =>
    api.get<{ loginDateTime: string | null }>(`api/userLoginActivities/${userId}`),
};

export function useUserList(query: UserListQuery) {
  return useQuery({
    queryKey: queryKeys.users.list(query),
    queryFn: () => usersApi.list(query),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useSingleUser(id: number | string) {
  return useQuery({ queryKey: queryKeys.users.byId(id), queryFn: () => usersApi.byId(id), retry: false });
}

export function useLastLogin(id: number | string) {
  return useQuery({ queryKey: queryKeys.users.lastLogin(id), queryFn: () => usersApi.lastLogin(id), retry: false });
}

export function useOrganisationInfo() {
  return useQuery({ queryKey: queryKeys.organisation, queryFn: usersApi.organisation, retry: false });
}

/** Reloads every user query (list, single user) after a change. */
export function useReloadUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserGroupItem, UserGroupMapping } from '@shared/api-types';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** GET api/users/{userId}/user-groups; writers add (PUT) and remove (DELETE) one membership at a time. */
export const userGroupsOfUserApi = {
  get: (userId: number | string) => api.get<UserGroupMapping>(`api/users/${userId}/user-groups`),
  add: (userId: number | string, groupId: number) =>
    api.put<UserGroupMapping>(`api/users/${userId}/user-groups/${groupId}`),
  create: (name: string) => api.post<UserGroupItem>('api/user-groups', { name }),
  remove: (userId: number | string, groupId: number) =>
    api.delete<UserGroupMapping>(`api/users/${userId}/user-groups/${groupId}`),
};

export function useUserGroupsOfUser(userId: number | string) {
  return useQuery({
    queryKey: queryKeys.users.userGroups(userId),
    queryFn: () => userGroupsOfUserApi.get(userId),
    retry: false,
  });
}

export function useChangeMembership(userId: number | string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** A membership on or off; with newGroupName, the group is created first, then joined. */
    mutationFn: async ({
      groupId,
      member,
      newGroupName,
    }: {
      groupId?: number;
      member: boolean;
      newGroupName?: string;
    }) => {
      const id = newGroupName ? (await userGroupsOfUserApi.create(newGroupName)).id : groupId!;
      return member ? userGroupsOfUserApi.add(userId, id) : userGroupsOfUserApi.remove(userId, id);
    },
    onSuccess: (mapping) => queryClient.setQueryData(queryKeys.users.userGroups(userId), mapping),
  });
}

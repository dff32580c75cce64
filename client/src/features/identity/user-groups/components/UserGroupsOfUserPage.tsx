import {
  Alert,
  Button,
  Heading,
  HStack,
  Input,
  Link,
  NativeSelect,
  Spinner,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { displayName, isWriter, USER_TEXTS } from '@/features/identity/users';
import { useChangeMembership, useUserGroupsOfUser } from '../api/user-groups-of-user-api';

/** Route users/{userId}/user-groups ('View User Group Mapping'): the user's groups; writers add and remove memberships. */
export function UserGroupsOfUserPage() {
  const { userId = '' } = useParams();
  const writer = isWriter(useAuth().roles);
  const mapping = useUserGroupsOfUser(userId);
  const change = useChangeMembership(userId);
  const [toAdd, setToAdd] = useState('');
  const [newName, setNewName] = useState('');

  function run(groupId: number | undefined, member: boolean, newGroupName?: string) {
    change.mutate(
      { groupId, member, newGroupName },
      {
        onSuccess: () => {
          setToAdd('');
          setNewName('');
          toaster.create({ type: 'success', title: USER_TEXTS.CHANGE_SAVED });
        },
        onError: (error) =>
          toaster.create({ type: 'error', title: 'Error', description: errorMessage(error, 'Something went wrong') }),
      },
    );
  }

  if (mapping.isLoading) return <Spinner />;
  if (!mapping.data)
    return (
      <Alert.Root status="error" data-testid="user-groups-error">
        <Alert.Indicator />
        <Alert.Title>{errorMessage(mapping.error, 'Something went wrong')}</Alert.Title>
      </Alert.Root>
    );

  const m = mapping.data;
  const memberIds = new Set(m.groups.map((g) => g.id));
  const addable = m.allGroups.filter((g) => !memberIds.has(g.id));
  const name = displayName(m) || m.userEmail;

  return (
    <Stack gap="4" maxW="3xl" data-testid="user-groups-of-user">
      <Link asChild colorPalette="blue" fontSize="sm">
        <RouterLink to={paths.users}>‹ Users</RouterLink>
      </Link>
      <Heading as="h1" size="xl">
        User Group Mapping of {name}
      </Heading>
      <Text color="fg.muted">{m.userEmail}</Text>
      <Table.Root size="sm" variant="outline">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>User group</Table.ColumnHeader>
            <Table.ColumnHeader>Members</Table.ColumnHeader>
            {writer && <Table.ColumnHeader w="32" />}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {m.groups.length === 0 ? (
            <Table.Row>
              <Table.Cell colSpan={writer ? 3 : 2} textAlign="center">
                This user belongs to no user group.
              </Table.Cell>
            </Table.Row>
          ) : (
            m.groups.map((g) => (
              <Table.Row key={g.id} data-testid="user-group-row">
                <Table.Cell>{g.name}</Table.Cell>
                <Table.Cell>{g.memberCount}</Table.Cell>
                {writer && (
                  <Table.Cell>
                    <Button
                      size="xs"
                      variant="outline"
                      colorPalette="red"
                      disabled={change.isPending}
                      onClick={() => run(g.id, false)}
                    >
                      Remove
                    </Button>
                  </Table.Cell>
                )}
              </Table.Row>
            ))
          )}
        </Table.Body>
      </Table.Root>
      {writer && addable.length > 0 && (
        <HStack>
          <NativeSelect.Root size="sm" width="64">
            <NativeSelect.Field aria-label="User group to add" value={toAdd} onChange={(e) => setToAdd(e.target.value)}>
              <option value="">Select a user group</option>
              {addable.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Button
            size="sm"
            colorPalette="blue"
            disabled={!toAdd || change.isPending}
            onClick={() => run(Number(toAdd), true)}
          >
            Add to group
          </Button>
        </HStack>
      )}
      {writer && (
        <HStack
          as="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (newName.trim()) run(undefined, true, newName.trim());
          }}
        >
          <Input
            size="sm"
            width="64"
            maxLength={100}
            placeholder="New user group name"
            aria-label="New user group name"
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
          />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            colorPalette="blue"
            disabled={!newName.trim() || change.isPending}
          >
            Create group and add
          </Button>
        </HStack>
      )}
    </Stack>
  );
}

import { CloseButton, Flex, Input, NativeSelect } from '@chakra-ui/react';
import type { AccessLevel } from '@shared/api-types';
import { ALL_ROLES, Role } from '@shared/roles';
import { RoleOptions } from '@/components/ui/role-options';

export interface UserFilter {
  searchText: string;
  accessLevel: AccessLevel;
  role: Role | null;
}

export const EMPTY_FILTER: UserFilter = { searchText: '', accessLevel: 'all', role: null };

export const ACCESS_OPTIONS: Array<{ value: AccessLevel; label: string }> = [
  { value: 'all', label: 'All users' },
  { value: 'hasAccess', label: 'Has access' },
  { value: 'noAccess', label: 'Has no access' },
];

/** Spec 000 §2 / 001 §2.6: free text, access level, and a clearable roles dropdown fed by the role catalogue. */
export function UsersFilterBar({ filter, onChange }: { filter: UserFilter; onChange: (f: UserFilter) => void }) {
  return (
    <Flex gap="3" mb="3" wrap="wrap" align="center" data-testid="users-filter-bar">
      <Input
        size="sm"
        maxW="xs"
        placeholder="Filter by name or email"
        aria-label="Filter by name or email"
        value={filter.searchText}
        onChange={(e) => onChange({ ...filter, searchText: e.target.value })}
      />
      <NativeSelect.Root size="sm" maxW="44">
        <NativeSelect.Field
          aria-label="Access level"
          value={filter.accessLevel}
          onChange={(e) => onChange({ ...filter, accessLevel: e.target.value as AccessLevel })}
        >
          {ACCESS_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Flex align="center" gap="1">
        <NativeSelect.Root size="sm" width="48">
          <NativeSelect.Field
            aria-label="Role"
            value={filter.role ?? ''}
            onChange={(e) => onChange({ ...filter, role: e.target.value ? (Number(e.target.value) as Role) : null })}
          >
            <option value="">All roles</option>
            <RoleOptions roles={ALL_ROLES} />
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {filter.role !== null && (
          <CloseButton size="xs" aria-label="Clear role filter" onClick={() => onChange({ ...filter, role: null })} />
        )}
      </Flex>
    </Flex>
  );
}

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UserGroupMapping } from '@shared/api-types';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { UserGroupsOfUserPage } from './UserGroupsOfUserPage';

const A = { id: 1, name: 'Tax team', memberCount: 3 };
const B = { id: 2, name: 'Auditors', memberCount: 1 };
const mapping = (groups = [A]): UserGroupMapping => ({
  userId: 7,
  userEmail: 'grace@example.com',
  firstName: 'Grace',
  lastName: 'Hopper',
  groups,
  allGroups: [A, B],
});

function setup(roles: Role[]) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/users/7/user-groups': { body: mapping() },
    'PUT api/users/7/user-groups/2': { body: mapping([A, { ...B, memberCount: 2 }]) },
    'DELETE api/users/7/user-groups/1': { body: mapping([]) },
    'POST api/user-groups': { status: 201, body: { id: 3, name: 'Reviewers', memberCount: 0 } },
    'PUT api/users/7/user-groups/3': { body: mapping([A, { id: 3, name: 'Reviewers', memberCount: 1 }]) },
  });
  renderPage('/users/7/user-groups', '/users/:userId/user-groups', <UserGroupsOfUserPage />);
  return server;
}

describe('UserGroupsOfUserPage', () => {
  it("lists the user's groups read-only for a standard admin", async () => {
    setup([Role.STANDARD_ADMIN]);
    expect(await screen.findByRole('heading', { name: 'User Group Mapping of Grace Hopper' })).toBeInTheDocument();
    expect(screen.getAllByTestId('user-group-row').map((r) => r.textContent)).toEqual(['Tax team3']);
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'New user group name' })).not.toBeInTheDocument();
  });

  it('lets a writer add and remove memberships', async () => {
    const { calls } = setup([Role.SITE_ADMIN]);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'User group to add' }), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Add to group' }));
    await waitFor(() => expect(screen.getAllByTestId('user-group-row')).toHaveLength(2));
    expect(calls.some((c) => c.method === 'PUT' && c.path === 'api/users/7/user-groups/2')).toBe(true);
    await userEvent.click(screen.getAllByRole('button', { name: 'Remove' })[0]);
    expect(await screen.findByText('This user belongs to no user group.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === 'api/users/7/user-groups/1')).toBe(true);
  });

  it('lets a writer create a group and add the user to it', async () => {
    const { calls } = setup([Role.ADMINISTRATOR]);
    await userEvent.type(await screen.findByRole('textbox', { name: 'New user group name' }), '  Reviewers ');
    await userEvent.click(screen.getByRole('button', { name: 'Create group and add' }));
    await waitFor(() =>
      expect(screen.getAllByTestId('user-group-row').map((r) => r.textContent)).toContain('Reviewers1Remove'),
    );
    expect(calls.find((c) => c.path === 'api/user-groups')!.body).toEqual({ name: 'Reviewers' });
  });
});

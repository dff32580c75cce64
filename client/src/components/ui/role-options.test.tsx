import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Role, ROLE_NAMES } from '@shared/roles';
import { SSO_DEFAULT_ROLES } from '@shared/identity/sso';
import { RoleOptions } from './role-options';

describe('RoleOptions', () => {
  it('lists the given roles in order, each by its name with its number as the value', () => {
    render(
      <select aria-label="Role" defaultValue={String(Role.ANALYST)}>
        <RoleOptions roles={[Role.ADMINISTRATOR, Role.ANALYST, Role.VIEWER]} />
      </select>,
    );
    const options = screen.getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((o) => [o.value, o.textContent])).toEqual([
      [String(Role.ADMINISTRATOR), ROLE_NAMES[Role.ADMINISTRATOR]],
      [String(Role.ANALYST), ROLE_NAMES[Role.ANALYST]],
      [String(Role.VIEWER), ROLE_NAMES[Role.VIEWER]],
    ]);
    expect((screen.getByRole('combobox', { name: 'Role' }) as HTMLSelectElement).value).toBe(String(Role.ANALYST));
  });

  it("offers a just-in-time account's roles and no other", () => {
    render(
      <select aria-label="Role of new accounts">
        <RoleOptions roles={SSO_DEFAULT_ROLES} />
      </select>,
    );
    const names = screen.getAllByRole('option').map((o) => o.textContent);
    expect(names).toEqual(SSO_DEFAULT_ROLES.map((r) => ROLE_NAMES[r]));
    expect(names).not.toContain(ROLE_NAMES[Role.E_SUPPORT]);
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { OrganisationArea } from '@/lib/organisation-scope';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { OrganisationPage } from './OrganisationPage';

vi.setConfig({ testTimeout: 20_000 });

const T = {
  TITLE: 'Rules',
  INTRO: 'The rules of the organisation.',
  ORGANISATION: 'Organisation',
  OWN_ORGANISATION: 'My organisation',
  READ_ONLY: 'You can only read these rules.',
};

const page = (
  <OrganisationPage name="rules" texts={T} picker readOnly>
    Body
  </OrganisationPage>
);

function setup(roles: Role[], element = page) {
  fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/announcements/organisations': { body: [{ id: 3, code: 'BETA', name: 'Beta Ltd' }] },
  });
  return renderPage('/rules', '/rules', element);
}

describe('OrganisationPage', () => {
  it('shows its title, introduction and read-only note, and no picker to anyone but E-Support', async () => {
    setup([Role.SITE_ADMIN]);
    expect(await screen.findByRole('heading', { name: 'Rules', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(T.INTRO)).toBeInTheDocument();
    expect(screen.getByTestId('rules-read-only')).toHaveTextContent(T.READ_ONLY);
    expect(screen.getByTestId('rules-page')).toHaveTextContent('Body');
    expect(screen.queryByTestId('rules-organisation')).not.toBeInTheDocument();
  });

  it('lets E-Support choose the organisation, kept in the address', async () => {
    const { router } = setup([Role.E_SUPPORT]);
    const picker = await screen.findByTestId('rules-organisation');
    expect(screen.getByRole('option', { name: T.OWN_ORGANISATION })).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Beta Ltd (BETA)' });
    await userEvent.selectOptions(picker, '3');
    await waitFor(() => expect(router.state.location.search).toBe('?organisationId=3'));
    await userEvent.selectOptions(picker, '');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('leaves the choice to the organisation settings area, whose one picker chooses for every tab', async () => {
    setup(
      [Role.E_SUPPORT],
      <OrganisationArea>
        <OrganisationPage name="rules" texts={T} picker>
          Body
        </OrganisationPage>
      </OrganisationArea>,
    );
    await screen.findByText('Body');
    expect(screen.queryByTestId('rules-organisation')).not.toBeInTheDocument();
    expect(screen.queryByTestId('rules-read-only')).not.toBeInTheDocument();
  });
});

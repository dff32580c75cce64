import { describe, expect, it } from 'vitest';
import { Role } from '@shared/roles';
import {
  cogMenuEntries,
  isCaViewer,
  isTaxManagerView,
  mainMenuEntries,
  showsCaViewerNotice,
  showsCog,
  showsDevelopOptions,
} from './menu-model';
import { ROLE_CASES } from '@/test/shell';

const TM = ['TAX_MANAGER', 'CA_VIEWER'];
const CA_ONLY = ['CA_VIEWER'];
const labels = (e: Array<{ label: string }>) => e.map((x) => x.label);

/** The expected menus per role, from spec 001 §2.2, §2.4, §6 and docs/product-rules.md §2. */
const EXPECTED: Record<string, { main: string[]; cog: string[] }> = {
  E_SUPPORT: {
    main: ['Home'],
    cog: [
      'Users',
      'Audit Log',
      'Single Sign-On',
      'Directory Provisioning',
      'Integrations',
      'Security Policy',
      'Organisation Settings',
    ],
  },
  SITE_ADMIN: {
    main: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
    cog: [
      'Users',
      'User Groups',
      'Clients',
      'Audit Log',
      'Single Sign-On',
      'Directory Provisioning',
      'Integrations',
      'Security Policy',
      'Organisation Settings',
    ],
  },
  ADMINISTRATOR: {
    main: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
    cog: [
      'Users',
      'User Groups',
      'Clients',
      'Audit Log',
      'Single Sign-On',
      'Directory Provisioning',
      'Organisation Settings',
    ],
  },
  STANDARD_ADMIN: {
    main: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
    cog: ['Users', 'User Groups', 'Clients'],
  },
  PORTFOLIO_MANAGER: {
    main: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
    cog: ['User Groups', 'Clients'],
  },
  ANALYST: { main: ['Home', 'Activities', 'External data', 'User Security', 'Reports'], cog: [] },
  VIEWER: { main: ['Home', 'Activities', 'Reports'], cog: [] },
  CA_VIEWER: { main: ['Home'], cog: [] },
};

describe('header menus by role (tax manager organisation)', () => {
  it.each(ROLE_CASES)('%s', (code, roles) => {
    expect(labels(mainMenuEntries(roles, TM))).toEqual(EXPECTED[code].main);
    expect(labels(cogMenuEntries(roles, TM))).toEqual(EXPECTED[code].cog);
    expect(showsCog(roles, TM, 'production')).toBe(EXPECTED[code].cog.length > 0);
    expect(showsCog(roles, TM, 'develop')).toBe(true);
    expect(showsCaViewerNotice(roles, TM)).toBe(code === 'CA_VIEWER');
  });

  it('Home leads to /portfolios in the tax manager view and to / otherwise', () => {
    expect(mainMenuEntries([Role.ANALYST], TM)[0]).toEqual({ label: 'Home', to: '/portfolios' });
    expect(mainMenuEntries([Role.E_SUPPORT], TM)).toEqual([{ label: 'Home', to: '/' }]);
    expect(mainMenuEntries([Role.CA_VIEWER], TM)).toEqual([{ label: 'Home', to: '/' }]);
  });

  it('without the Tax Manager application: only Home (/), and no Clients in the cog', () => {
    expect(isTaxManagerView([Role.SITE_ADMIN], CA_ONLY)).toBe(false);
    expect(mainMenuEntries([Role.SITE_ADMIN], CA_ONLY)).toEqual([{ label: 'Home', to: '/' }]);
    expect(labels(cogMenuEntries([Role.SITE_ADMIN], CA_ONLY))).toEqual([
      'Users',
      'User Groups',
      'Audit Log',
      'Single Sign-On',
      'Directory Provisioning',
      'Integrations',
      'Security Policy',
      'Organisation Settings',
    ]);
  });

  it('a CA Viewer is a user of the corporate actions viewer without the tax manager (spec 001 §1, §9; docs/product-rules.md §2)', () => {
    // The defaults of a new organisation: every one of its users is a CA Viewer, whatever the role.
    for (const [, roles] of ROLE_CASES) {
      expect(isCaViewer(roles, CA_ONLY)).toBe(true);
      expect(showsCaViewerNotice(roles, CA_ONLY)).toBe(true);
      expect(labels(mainMenuEntries(roles, CA_ONLY))).toEqual(['Home']);
    }
    // With the tax manager application only role 8 is limited; without either application nobody is a CA Viewer.
    expect(isCaViewer([Role.SITE_ADMIN], TM)).toBe(false);
    expect(isCaViewer([Role.CA_VIEWER], TM)).toBe(true);
    expect(isCaViewer([Role.SITE_ADMIN], [])).toBe(false);
    expect(isCaViewer([Role.SITE_ADMIN], ['TAX_MANAGER'])).toBe(false);
  });

  it("the develop options appear only when the environment is named 'develop'", () => {
    expect(showsDevelopOptions('develop')).toBe(true);
    expect(showsDevelopOptions('production')).toBe(false);
    expect(showsDevelopOptions(undefined)).toBe(false);
    expect(showsCog([Role.VIEWER], TM, undefined)).toBe(false);
  });
});

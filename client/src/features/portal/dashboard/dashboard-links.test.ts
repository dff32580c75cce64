import { describe, expect, it } from 'vitest';
import { Role } from '@shared/roles';
import { ROLE_CASES } from '@/test/shell';
import { dashboardLinks } from './dashboard-links';

const TM = ['TAX_MANAGER', 'CA_VIEWER'];
const labels = (roles: Role[], apps = TM) => dashboardLinks(roles, apps, 9).map((l) => l.label);
const COMMON = ['My Profile', 'My Security', 'User Manual', 'Announcements'];

describe('dashboard: what each role can do next', () => {
  it.each(ROLE_CASES)('%s', (code, roles) => {
    const expected: Record<string, string[]> = {
      E_SUPPORT: [
        'Users',
        'Create Site Admin',
        'Create E-Support Account',
        'Audit Log',
        'Single Sign-On',
        'Directory Provisioning',
        'Integrations',
        'Security Policy',
        'Organisation Settings',
        'Insights',
        'Organisations at a Glance',
      ],
      SITE_ADMIN: [
        'Portfolios',
        'Activities',
        'External data',
        'User Security',
        'Reports',
        'Users',
        'Create User',
        'User Sessions',
        'Manage Billing',
        'User Groups',
        'Clients',
        'Audit Log',
        'Single Sign-On',
        'Directory Provisioning',
        'Integrations',
        'Security Policy',
        'Organisation Settings',
        'Insights',
      ],
      ADMINISTRATOR: [
        'Portfolios',
        'Activities',
        'External data',
        'User Security',
        'Reports',
        'Users',
        'Create User',
        'User Sessions',
        'Manage Billing',
        'User Groups',
        'Clients',
        'Audit Log',
        'Single Sign-On',
        'Directory Provisioning',
        'Organisation Settings',
        'Insights',
      ],
      STANDARD_ADMIN: [
        'Portfolios',
        'Activities',
        'External data',
        'User Security',
        'Reports',
        'Users',
        'Manage Billing',
        'User Groups',
        'Clients',
      ],
      PORTFOLIO_MANAGER: [
        'Portfolios',
        'Activities',
        'External data',
        'User Security',
        'Reports',
        'User Groups',
        'Clients',
      ],
      ANALYST: ['Portfolios', 'Activities', 'External data', 'User Security', 'Reports'],
      VIEWER: ['Portfolios', 'Activities', 'Reports'],
      CA_VIEWER: [],
    };
    expect(labels(roles)).toEqual([...expected[code], ...COMMON]);
  });

  it('links to the user’s own profile', () => {
    expect(dashboardLinks([Role.VIEWER], TM, 9).find((l) => l.label === 'My Profile')?.to).toBe('/users/profile/9');
  });

  it('without the Tax Manager application, no Tax Manager areas', () => {
    expect(labels([Role.SITE_ADMIN], ['CA_VIEWER'])).toEqual([
      'Users',
      'Create User',
      'User Sessions',
      'Manage Billing',
      'User Groups',
      'Audit Log',
      'Single Sign-On',
      'Directory Provisioning',
      'Integrations',
      'Security Policy',
      'Organisation Settings',
      'Insights',
      ...COMMON,
    ]);
  });
});

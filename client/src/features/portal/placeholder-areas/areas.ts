import { APPLICATIONS } from '@shared/api-types';
import { ADMIN_TYPE_ROLES, FIVE_ROLES, Role, SIX_ROLES } from '@shared/roles';

/**
 * The Tax Manager areas whose screens the specification does not show (spec 001 §2.1). Each keeps its
 * role rule and shows an honest page; `roles` and `application` are the route's access rule.
 */
export interface Area {
  path: string;
  title: string;
  roles: readonly Role[];
  application?: string;
  summary: string;
}

const TM = APPLICATIONS.TAX_MANAGER;

export const PLACEHOLDER_AREAS: Area[] = [
  {
    path: 'portfolios',
    title: 'Portfolios',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Your organisation’s portfolios and their holdings.',
  },
  {
    path: 'portfolios/:portfolioId/sub-portfolios',
    title: 'Sub-portfolios',
    roles: SIX_ROLES,
    application: TM,
    summary: 'The sub-portfolios of a portfolio.',
  },
  {
    path: 'portfolios/:portfolioId/user-groups',
    title: 'Portfolio user groups',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Which user groups may work on a portfolio.',
  },
  {
    path: 'user-groups',
    title: 'User Groups',
    roles: ADMIN_TYPE_ROLES,
    application: TM,
    summary: 'Groups of users that share portfolios.',
  },
  {
    path: 'clients',
    title: 'Clients',
    roles: ADMIN_TYPE_ROLES,
    application: TM,
    summary: 'The clients whose portfolios your organisation manages.',
  },
  {
    path: 'activities',
    title: 'Activities',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Processing activity across your portfolios.',
  },
  {
    path: 'activities-no-clients',
    title: 'Activities',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Processing activity for portfolios without a client.',
  },
  {
    path: 'external-data',
    title: 'External data',
    roles: FIVE_ROLES,
    application: TM,
    summary: 'Data imported from registries and other external sources.',
  },
  {
    path: 'user-security-management',
    title: 'User Security',
    roles: FIVE_ROLES,
    application: TM,
    summary: 'Securities defined by your users.',
  },
  {
    path: 'userSecurityAdmin/edit',
    title: 'User Securities',
    roles: FIVE_ROLES,
    application: TM,
    summary: 'Editing a user-defined security.',
  },
  {
    path: 'reports',
    title: 'Reports',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Capital gains tax and corporate actions reports.',
  },
  {
    path: 'cgtview',
    title: 'CGT View',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Capital gains tax positions of a portfolio.',
  },
  {
    path: 'cpi-data',
    title: 'CPI Data',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Consumer price index figures used for indexation.',
  },
  {
    path: 'user-transactions',
    title: 'User Transactions',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Transactions entered by your users.',
  },
  {
    path: 'user-transactions-import',
    title: 'Import User Transactions',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Importing transactions from a file.',
  },
  {
    path: 'dividend-calc',
    title: 'Dividend Calculator',
    roles: SIX_ROLES,
    application: TM,
    summary: 'Dividend and franking calculations.',
  },
];

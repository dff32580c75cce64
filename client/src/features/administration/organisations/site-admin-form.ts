import type { SiteAdminCreation } from '@shared/api-types';
import { LIMITS } from '@shared/limits';
import {
  AccountTypeName,
  APPLICATION_IDS,
  ORG_ADMIN_MESSAGES as M,
  SITE_ADMIN_DEFAULTS,
  SITE_ADMIN_MINIMUMS,
} from '@shared/administration/organisation-admin';
import { Role } from '@shared/roles';

/** The Create Site Admin form (spec 001 §2.12). Numbers are kept as typed text until they are sent. */
export interface SiteAdminForm {
  accountType: AccountTypeName;
  isSSO: boolean;
  name: string;
  code: string;
  email: string;
  ssoLogoutUrl: string;
  taxManagerApp: boolean;
  allowedUsersNumber: string;
  maxConcurrentUsers: string;
  maxPortfolios: string;
}

/** Spec 001 §9: the defaults. */
export const INITIAL_SITE_ADMIN_FORM: SiteAdminForm = {
  accountType: SITE_ADMIN_DEFAULTS.accountType,
  isSSO: SITE_ADMIN_DEFAULTS.isSSO,
  name: '',
  code: '',
  email: '',
  ssoLogoutUrl: '',
  taxManagerApp: SITE_ADMIN_DEFAULTS.taxManagerApp,
  allowedUsersNumber: String(SITE_ADMIN_DEFAULTS.allowedUsersNumber),
  maxConcurrentUsers: String(SITE_ADMIN_DEFAULTS.maxConcurrentUsers),
  maxPortfolios: String(SITE_ADMIN_DEFAULTS.maxPortfolios),
};

export type SiteAdminErrors = Partial<Record<keyof SiteAdminForm, string>>;

const isWhole = (v: string) => /^-?\d+$/.test(v.trim());

/** Spec 001 §4: switching to Individual clears the name. */
export function withAccountType(form: SiteAdminForm, accountType: AccountTypeName): SiteAdminForm {
  return { ...form, accountType, name: accountType === 'Individual' ? '' : form.name };
}

/** Spec 001 §5, with the messages the server gives too. */
export function validateSiteAdmin(form: SiteAdminForm): SiteAdminErrors {
  const errors: SiteAdminErrors = {};
  if (form.accountType === 'Organization' && !form.name.trim()) errors.name = M.COMPANY_NAME_REQUIRED;
  if (!form.code.trim()) errors.code = M.CODE_REQUIRED;
  else if (form.code.trim().length > LIMITS.ORGANISATION_CODE_MAX) errors.code = M.CODE_TOO_LONG;
  if (!form.email.trim()) errors.email = M.EMAIL_EMPTY;
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) errors.email = M.INVALID_EMAIL;
  else if (form.email.trim().length > LIMITS.EMAIL_MAX) errors.email = M.EMAIL_TOO_LONG;
  if (!isWhole(form.allowedUsersNumber) || Number(form.allowedUsersNumber) < SITE_ADMIN_MINIMUMS.allowedUsersNumber)
    errors.allowedUsersNumber = M.ALLOWED_USERS_MIN;
  if (!isWhole(form.maxConcurrentUsers) || Number(form.maxConcurrentUsers) < SITE_ADMIN_MINIMUMS.maxConcurrentUsers)
    errors.maxConcurrentUsers = M.CONCURRENT_USERS_MIN;
  if (!isWhole(form.maxPortfolios) || Number(form.maxPortfolios) < SITE_ADMIN_MINIMUMS.maxPortfolios)
    errors.maxPortfolios = M.MAX_PORTFOLIOS_NEGATIVE;
  if (form.isSSO && form.ssoLogoutUrl.trim() && !/^https?:\/\/\S+$/i.test(form.ssoLogoutUrl.trim()))
    errors.ssoLogoutUrl = M.SSO_LOGOUT_URL_INVALID;
  return errors;
}

/** Spec 001 §5: Confirm is enabled only with code and e-mail (and name for Organization), and the limits valid. */
export function canConfirm(form: SiteAdminForm): boolean {
  const required =
    !!form.code.trim() && !!form.email.trim() && (form.accountType === 'Individual' || !!form.name.trim());
  return required && Object.keys(validateSiteAdmin(form)).length === 0;
}

export function toSiteAdminPayload(form: SiteAdminForm): SiteAdminCreation {
  return {
    userEmail: form.email.trim(),
    organizationName: form.accountType === 'Organization' ? form.name.trim() : '',
    organizationCode: form.code.trim(),
    allowedUsersNumber: Number(form.allowedUsersNumber),
    maxConcurrentUsers: Number(form.maxConcurrentUsers),
    maxPortfolios: Number(form.maxPortfolios),
    masterTaxManagerApplicationIds: form.taxManagerApp ? [APPLICATION_IDS.TAX_MANAGER] : [],
    masterCorporateActionsApplicationIds: [APPLICATION_IDS.CA_VIEWER],
    userRoleIds: [Role.SITE_ADMIN],
    accountType: form.accountType,
    ssoLogoutUrl: form.isSSO ? form.ssoLogoutUrl.trim() : '',
    isSSO: form.isSSO,
  };
}

/** Spec 001 §5 'Create support user': required, no @ or |. Null when fine. */
export function validateESupportName(userName: string): string | null {
  if (/[@|]/.test(userName)) return M.ESUPPORT_FORBIDDEN_CHARS;
  if (!userName.trim()) return M.ESUPPORT_EMAIL_REQUIRED;
  if (/\s/.test(userName.trim())) return M.INVALID_EMAIL;
  return null;
}

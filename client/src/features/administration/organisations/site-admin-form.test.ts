import { describe, expect, it } from 'vitest';
import {
  canConfirm,
  INITIAL_SITE_ADMIN_FORM,
  toSiteAdminPayload,
  validateESupportName,
  validateSiteAdmin,
  withAccountType,
} from './site-admin-form';

const filled = { ...INITIAL_SITE_ADMIN_FORM, name: 'Acme', code: 'ACME', email: 'admin@acme.example.com' };

describe('Create Site Admin rules (spec 001 §4, §5, §9)', () => {
  it('starts with the defaults of §9', () => {
    expect(INITIAL_SITE_ADMIN_FORM).toMatchObject({
      accountType: 'Organization',
      isSSO: false,
      taxManagerApp: false,
      allowedUsersNumber: '1',
      maxConcurrentUsers: '1',
      maxPortfolios: '0',
    });
    expect(toSiteAdminPayload(filled)).toEqual({
      userEmail: 'admin@acme.example.com',
      organizationName: 'Acme',
      organizationCode: 'ACME',
      allowedUsersNumber: 1,
      maxConcurrentUsers: 1,
      maxPortfolios: 0,
      masterTaxManagerApplicationIds: [],
      masterCorporateActionsApplicationIds: [2],
      userRoleIds: [2],
      accountType: 'Organization',
      ssoLogoutUrl: '',
      isSSO: false,
    });
  });

  it('enables Confirm only with code and e-mail, and the name for an Organization', () => {
    expect(canConfirm(INITIAL_SITE_ADMIN_FORM)).toBe(false);
    expect(canConfirm(filled)).toBe(true);
    expect(canConfirm({ ...filled, code: ' ' })).toBe(false);
    expect(canConfirm({ ...filled, email: '' })).toBe(false);
    expect(canConfirm({ ...filled, name: '' })).toBe(false);
    expect(canConfirm({ ...filled, name: '', accountType: 'Individual' })).toBe(true);
  });

  it('switching to Individual clears the name', () => {
    expect(withAccountType(filled, 'Individual')).toMatchObject({ accountType: 'Individual', name: '' });
    expect(withAccountType(filled, 'Organization').name).toBe('Acme');
  });

  it('gives the messages of §5 and the minimums of §9', () => {
    expect(validateSiteAdmin({ ...filled, name: ' ' }).name).toBe('Company name cannot be empty');
    expect(validateSiteAdmin({ ...filled, email: '' }).email).toBe('Email cannot be empty');
    expect(validateSiteAdmin({ ...filled, maxPortfolios: '-1' }).maxPortfolios).toBe(
      'Max portfolios must not be negative',
    );
    expect(validateSiteAdmin({ ...filled, allowedUsersNumber: '0' }).allowedUsersNumber).toBe(
      'Allowed users must be at least 1',
    );
    expect(validateSiteAdmin({ ...filled, maxConcurrentUsers: '0' }).maxConcurrentUsers).toBe(
      'Concurrent users must be at least 1',
    );
    expect(validateSiteAdmin({ ...filled, code: 'C'.repeat(26) }).code).toBe('Code must be at most 25 characters');
    expect(validateSiteAdmin({ ...filled, code: 'C'.repeat(25) }).code).toBeUndefined();
    expect(canConfirm({ ...filled, maxPortfolios: '-1' })).toBe(false);
    expect(validateSiteAdmin(filled)).toEqual({});
  });

  it('sends the tax manager app when chosen, and the SSO logout URL only with SSO on', () => {
    expect(toSiteAdminPayload({ ...filled, taxManagerApp: true }).masterTaxManagerApplicationIds).toEqual([1]);
    expect(toSiteAdminPayload({ ...filled, ssoLogoutUrl: 'https://idp/logout' }).ssoLogoutUrl).toBe('');
    expect(toSiteAdminPayload({ ...filled, isSSO: true, ssoLogoutUrl: ' https://idp/logout ' })).toMatchObject({
      isSSO: true,
      ssoLogoutUrl: 'https://idp/logout',
    });
    expect(toSiteAdminPayload({ ...filled, accountType: 'Individual' }).organizationName).toBe('');
  });
});

describe('Create E-Support rules (spec 001 §5)', () => {
  it('requires the local part and refuses @ and |', () => {
    expect(validateESupportName('')).toBe('Email is required.');
    expect(validateESupportName('  ')).toBe('Email is required.');
    expect(validateESupportName('a@b')).toBe('Email cannot contain forbidden characters(@ and |).');
    expect(validateESupportName('a|b')).toBe('Email cannot contain forbidden characters(@ and |).');
    expect(validateESupportName('jane.doe')).toBeNull();
  });
});

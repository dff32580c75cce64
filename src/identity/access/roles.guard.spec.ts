import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContext } from '@nestjs/common';
import { Access } from '../../platform/web/decorators/access.decorators';
import { Role } from '../../shared/roles';
import { RolesGuard } from './roles.guard';

@Controller()
class Sample {
  @Get() @Access.public() open() {}
  @Get() @Access({ roles: [Role.SITE_ADMIN] }) admins() {}
  @Get() @Access({ roles: [Role.SITE_ADMIN, Role.STANDARD_ADMIN], mfaPending: true }) ownProfile() {}
  @Get() forgotten() {}
}

function context(handler: keyof Sample, user?: object): ExecutionContext {
  return {
    getType: () => 'http',
    getHandler: () => Sample.prototype[handler],
    getClass: () => Sample,
    switchToHttp: () => ({ getRequest: () => ({ user }) }),
  } as unknown as ExecutionContext;
}

const user = (
  roles: Role[],
  mfa: Partial<{ isMFAEnforced: boolean; isMFAEnabled: boolean; hasPasskey: boolean }> = {},
) => ({ id: 1, roles, isMFAEnforced: false, isMFAEnabled: false, ...mfa });

describe('RolesGuard', () => {
  const guard = new RolesGuard(new Reflector());

  it('lets public routes through', () => expect(guard.canActivate(context('open'))).toBe(true));

  it('refuses a route that names no roles: a forgotten decorator fails closed', () => {
    expect(() => guard.canActivate(context('forgotten', user([Role.SITE_ADMIN])))).toThrow(/not open to any role/);
  });

  it('allows exactly the named roles', () => {
    expect(guard.canActivate(context('admins', user([Role.SITE_ADMIN])))).toBe(true);
    expect(() => guard.canActivate(context('admins', user([Role.STANDARD_ADMIN, Role.ADMINISTRATOR])))).toThrow();
  });

  it('keeps an account with MFA enforced but not enabled to mfaPending routes', () => {
    const pending = user([Role.SITE_ADMIN], { isMFAEnforced: true });
    expect(() => guard.canActivate(context('admins', pending))).toThrow(/enforced MFA/);
    expect(guard.canActivate(context('ownProfile', pending))).toBe(true);
    expect(
      guard.canActivate(context('admins', user([Role.SITE_ADMIN], { isMFAEnforced: true, isMFAEnabled: true }))),
    ).toBe(true);
  });

  it('takes a passkey as enforced MFA set up, as TOTP', () => {
    expect(
      guard.canActivate(context('admins', user([Role.SITE_ADMIN], { isMFAEnforced: true, hasPasskey: true }))),
    ).toBe(true);
    expect(() =>
      guard.canActivate(context('admins', user([Role.SITE_ADMIN], { isMFAEnforced: true, hasPasskey: false }))),
    ).toThrow(/enforced MFA/);
  });
});

import { Controller, Get } from '@nestjs/common';
import { Role } from '../../../shared/roles';
import { Access, ACCESS_KEY } from './access.decorators';

describe('@Access', () => {
  it('records one rule per route, on the handler or on the controller', () => {
    @Access.scim()
    @Controller()
    class Directory {
      @Get() list() {}
    }
    @Controller()
    class Mixed {
      @Get() @Access({ roles: [Role.VIEWER], mfaPending: true, stepUp: true }) own() {}
      @Get() @Access.challenge('mfa', { optional: true }) step() {}
    }
    expect(Reflect.getOwnMetadata(ACCESS_KEY, Directory)).toEqual({ kind: 'scim' });
    expect(Reflect.getOwnMetadata(ACCESS_KEY, Mixed.prototype.own)).toEqual({
      kind: 'roles',
      roles: [Role.VIEWER],
      mfaPending: true,
      stepUp: {},
    });
    expect(Reflect.getOwnMetadata(ACCESS_KEY, Mixed.prototype.step)).toEqual({
      kind: 'challenge',
      step: 'mfa',
      optional: true,
    });
  });

  it('refuses a second @Access on the same handler or controller when the class is declared', () => {
    expect(() => {
      @Controller()
      class Twice {
        @Get() @Access.public() @Access({ roles: [Role.VIEWER] }) both() {}
      }
      return Twice;
    }).toThrow('Twice.both states its access twice: one @Access per route');
    expect(() => {
      @Access.serviceKey()
      @Access.public()
      @Controller()
      class Both {}
      return Both;
    }).toThrow('Both states its access twice');
  });

  it('records the scope an API key needs, and refuses a route both always sensitive and open to keys', () => {
    @Controller()
    class Scoped {
      @Get() @Access({ roles: [Role.SITE_ADMIN], apiKey: 'users:read' }) read() {}
    }
    expect(Reflect.getMetadata(ACCESS_KEY, Scoped.prototype.read)).toEqual({
      kind: 'roles',
      roles: [Role.SITE_ADMIN],
      mfaPending: false,
      apiKey: 'users:read',
    });
    expect(() => Access({ roles: [Role.SITE_ADMIN], stepUp: true, apiKey: 'users:write' })).toThrow(
      'A sensitive route is never open to an API key',
    );
  });
});

import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { IS_PUBLIC_KEY, IS_SERVICE_API_KEY, Roles } from '../../src/common/decorators/access.decorators';
import { createTestApp, TestApp } from '../utils/test-app';

/** Every HTTP route of the product states who may call it (the bar: `@Roles()` or an explicit opt-out). */
describe('route access inventory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  function routes() {
    const reflector = new Reflector();
    const out: Array<{ route: string; decision: string }> = [];
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const ctrl = wrapper.metatype as (new (...a: unknown[]) => object) | undefined;
        if (!ctrl?.prototype) continue;
        const base = String(Reflect.getMetadata(PATH_METADATA, ctrl) ?? '');
        for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
          const handler = Object.getOwnPropertyDescriptor(ctrl.prototype, name)?.value;
          if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
          const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
          const targets = [handler, ctrl];
          const roles = reflector.getAllAndOverride(Roles, targets);
          const decision = reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)
            ? 'public'
            : reflector.getAllAndOverride<boolean>(IS_SERVICE_API_KEY, targets)
              ? 'service-api'
              : roles?.length
                ? `roles:${roles.join(',')}`
                : 'NONE';
          out.push({ route: `${method} /${base}/${Reflect.getMetadata(PATH_METADATA, handler)}`.replace(/\/+/g, '/'), decision });
        }
      }
    }
    return out;
  }

  it('finds the routes', () => {
    expect(routes().map((r) => r.route)).toEqual(expect.arrayContaining(['POST /auth/login', 'GET /api/users/current', 'POST /refresh']));
  });

  it('has no route without an access decision', () => {
    expect(routes().filter((r) => r.decision === 'NONE')).toEqual([]);
  });
});

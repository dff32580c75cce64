import request from 'supertest';
import { RouteReflector } from '../../../src/platform/web/route-reflector';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

/** The global guards read route metadata through RouteReflector (remembered per route), and still decide alike. */
describe('global guards and RouteReflector', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is what the guards ask, and public, signed-in and role-restricted routes answer as before', async () => {
    const asked = jest.spyOn(RouteReflector.prototype, 'getAllAndOverride');
    const org = await createOrganisation(t);
    const viewer = await createUser(t, org, { roleId: Role.VIEWER });
    const s = await login(t, viewer.email);
    await request(t.http).get('/api/users/current').expect(401);
    await request(t.http).get('/api/users/current').set(s.auth).expect(200);
    await request(t.http).get('/api/users/current').set(s.auth).expect(200);
    await request(t.http).get('/api/users').set(s.auth).expect(403);
    expect(asked).toHaveBeenCalled();
    asked.mockRestore();
  });
});

import request from 'supertest';
import { SystemInformation } from '../../../src/portal/system-info/entities/system-information.entity';
import { version } from '../../../src/platform/config/version';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

const KEY = 'test-service-api-key-0123456789';

describe('System information (spec 001 §2.15, §3, §4, §7; docs/product-rules.md §3)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const record = (body: object, key: string | null = KEY) => {
    const r = request(t.http).post('/api/system-information');
    return (key ? r.set('X-Api-Key', key) : r).send(body);
  };
  const list = (body: object, auth: Record<string, string> = m.byRole.VIEWER.session.auth) =>
    request(t.http).post('/api/system-information/all').set(auth).send(body);

  it('the application records its own deployment, with its version, when it starts', async () => {
    const rows = await t.db.getRepository(SystemInformation).findBy({ eventType: 'application-deployment' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'completed', version });
  });

  it('records events only with the service key; a user token is not enough', async () => {
    const body = {
      eventType: 'com-engine',
      status: 'completed',
      version: '1.0.0',
      message: 'ok',
      startDateTime: '2026-01-01T00:00:00.000Z',
    };
    await record(body, null).expect(401);
    await record(body, 'wrong-key-wrong-key-wrong').expect(401);
    await request(t.http).post('/api/system-information').set(m.byRole.SITE_ADMIN.session.auth).send(body).expect(401);
    const res = await record(body).expect(201);
    expect(res.body).toMatchObject({
      eventType: 'com-engine',
      status: 'completed',
      version: '1.0.0',
      message: 'ok',
      startDateTime: '2026-01-01T00:00:00.000Z',
    });
  });

  it('refuses an unknown event type or status, a bad date and unknown fields with 400', async () => {
    expect((await record({ eventType: 'weather', status: 'completed' }).expect(400)).body.message).toBe(
      'eventType must be one of data-sync-update, com-engine, application-deployment.',
    );
    expect((await record({ eventType: 'com-engine', status: 'done' }).expect(400)).body.message).toBe(
      'status must be one of inProgress, completed, failed, scheduled.',
    );
    await record({ eventType: 'com-engine', status: 'failed', startDateTime: 'yesterday' }).expect(400);
    await record({ eventType: 'com-engine', status: 'failed', extra: 1 }).expect(400);
  });

  it('every signed-in role lists; anonymous callers get 401', async () => {
    const statuses = await statusesByRole(m, (a) => list({ eventType: 'com-engine', asc: false }, a.session.auth));
    expect(Object.values(statuses)).toEqual(Array(8).fill(200));
    await request(t.http).post('/api/system-information/all').send({}).expect(401);
    // The same list for another organisation: system information is not organisation data.
    const mine = await list({ eventType: 'com-engine', asc: false });
    const other = await list({ eventType: 'com-engine', asc: false }, m.otherOrgAdmin.session.auth);
    expect(other.body).toEqual(mine.body);
  });

  it('lists latest first (asc=false), oldest first with asc=true, filtered by event type', async () => {
    const at = (d: string, status: string, v: string) =>
      record({ eventType: 'data-sync-update', status, version: v, message: `sync ${v}`, startDateTime: d }).expect(201);
    await at('2026-03-02T10:00:00.000Z', 'completed', '2');
    await at('2026-03-01T10:00:00.000Z', 'completed', '1');
    await at('2026-03-03T10:00:00.000Z', 'failed', '3');
    await at('2026-03-04T10:00:00.000Z', 'inProgress', '4');

    const latest = (await list({ eventType: 'data-sync-update', asc: false }).expect(200)).body;
    expect(latest.map((e: { version: string }) => e.version)).toEqual(['4', '3', '2', '1']);
    expect(latest.every((e: { eventType: string }) => e.eventType === 'data-sync-update')).toBe(true);
    expect(latest[0]).toEqual({
      id: expect.any(Number),
      eventType: 'data-sync-update',
      status: 'inProgress',
      version: '4',
      message: 'sync 4',
      startDateTime: '2026-03-04T10:00:00.000Z',
      modified: expect.any(String),
    });
    // The first completed entry, as the About page picks it: version 2.
    expect(latest.find((e: { status: string }) => e.status === 'completed').version).toBe('2');

    const oldest = (await list({ eventType: 'data-sync-update', asc: true }).expect(200)).body;
    expect(oldest.map((e: { version: string }) => e.version)).toEqual(['1', '2', '3', '4']);

    const everything = (await list({}).expect(200)).body;
    expect(new Set(everything.map((e: { eventType: string }) => e.eventType))).toEqual(
      new Set(['data-sync-update', 'com-engine', 'application-deployment']),
    );
  });

  it('refuses a bad query with 400', async () => {
    await list({ eventType: 'nope' }).expect(400);
    await list({ asc: 'sideways' }).expect(400);
    await list({ page: 2 }).expect(400);
  });
});

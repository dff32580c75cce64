import request from 'supertest';
import { ContactProfileEntity } from '../../../src/administration/billing/entities/contact-profile.entity';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { expectedStatuses } from '../../utils/org-admin';
import { createTestApp, TestApp } from '../../utils/test-app';

const KINDS = [
  { base: '/api/primaryBillingInformation', kind: 'PRIMARY' },
  { base: '/api/billingInformation', kind: 'BILLING' },
] as const;
const ALLOWED = ['SITE_ADMIN', 'ADMINISTRATOR', 'STANDARD_ADMIN'];

describe('Billing contacts (spec 001 §2.11, §3, §5, §7, §8)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const as = (code: string) => m.byRole[code].session.auth;

  describe.each(KINDS)('$base', ({ base, kind }) => {
    it('reads an empty profile before anything was saved', async () => {
      const res = await request(t.http).get(`${base}/byMasterAccountId`).set(as('SITE_ADMIN')).expect(200);
      expect(res.body).toEqual({
        id: null,
        fullName: '',
        jobTitle: '',
        department: '',
        basedIn: '',
        email: '',
        mobile: '',
      });
    });

    it('creates with POST (no id), trims every value, then updates with PUT (with id)', async () => {
      const created = await request(t.http)
        .post(base)
        .set(as('SITE_ADMIN'))
        .send({
          fullName: '  Ada Lovelace ',
          jobTitle: ' CFO ',
          department: ' Finance',
          basedIn: 'Sydney ',
          email: ' ada@example.com ',
          mobile: ' 0400 000 000 ',
        })
        .expect(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        fullName: 'Ada Lovelace',
        jobTitle: 'CFO',
        department: 'Finance',
        basedIn: 'Sydney',
        email: 'ada@example.com',
        mobile: '0400 000 000',
      });
      const stored = await t.db.getRepository(ContactProfileEntity).findOneByOrFail({ id: created.body.id });
      expect(stored).toMatchObject({ organisationId: m.org.id, kind, fullName: 'Ada Lovelace' });

      // A second POST is refused: there is one contact of each kind.
      await request(t.http).post(base).set(as('ADMINISTRATOR')).send({ fullName: 'Other' }).expect(409);

      const updated = await request(t.http)
        .put(base)
        .set(as('STANDARD_ADMIN'))
        .send({ id: created.body.id, fullName: ' Grace Hopper ', mobile: '' })
        .expect(200);
      expect(updated.body).toMatchObject({ id: created.body.id, fullName: 'Grace Hopper', jobTitle: '', mobile: '' });
      const read = await request(t.http).get(`${base}/byMasterAccountId`).set(as('ADMINISTRATOR')).expect(200);
      expect(read.body.fullName).toBe('Grace Hopper');
    });

    it('refuses a blank full name (also only spaces), a missing id on PUT, bad e-mails and unknown fields', async () => {
      for (const fullName of ['', '   ', undefined]) {
        const res = await request(t.http)
          .post(base)
          .set(as('SITE_ADMIN'))
          .send({ fullName, jobTitle: 'x' })
          .expect(400);
        expect(res.body).toMatchObject({ success: false, statusCode: 400, message: 'Full name is required' });
      }
      await request(t.http).put(base).set(as('SITE_ADMIN')).send({ fullName: 'No Id' }).expect(400);
      const email = await request(t.http)
        .put(base)
        .set(as('SITE_ADMIN'))
        .send({ id: 1, fullName: 'A', email: 'not an email' })
        .expect(400);
      expect(email.body.message).toBe('Please enter a valid email');
      await request(t.http)
        .put(base)
        .set(as('SITE_ADMIN'))
        .send({ id: 1, fullName: 'A', organisationId: m.otherOrg.id })
        .expect(400);
      await request(t.http)
        .put(base)
        .set(as('SITE_ADMIN'))
        .send({ id: 1, fullName: 'x'.repeat(101) })
        .expect(400);
    });

    it("keeps organisations apart: another organisation sees its own empty profile and cannot update this one's (404)", async () => {
      const mine = await request(t.http).get(`${base}/byMasterAccountId`).set(as('SITE_ADMIN')).expect(200);
      expect(mine.body.id).not.toBeNull();
      const theirs = await request(t.http)
        .get(`${base}/byMasterAccountId`)
        .set(m.otherOrgAdmin.session.auth)
        .expect(200);
      expect(theirs.body.id).toBeNull();
      const res = await request(t.http)
        .put(base)
        .set(m.otherOrgAdmin.session.auth)
        .send({ id: mine.body.id, fullName: 'Hijack' })
        .expect(404);
      expect(res.body.code).toBe('NOT_FOUND');
      const after = await request(t.http).get(`${base}/byMasterAccountId`).set(as('SITE_ADMIN')).expect(200);
      expect(after.body.fullName).not.toBe('Hijack');
    });

    it('answers every role as the route table says (site admin, administrator, standard admin)', async () => {
      expect(
        await statusesByRole(m, (a) => request(t.http).get(`${base}/byMasterAccountId`).set(a.session.auth)),
      ).toEqual(expectedStatuses(ALLOWED, 200));
      const current = await request(t.http).get(`${base}/byMasterAccountId`).set(as('SITE_ADMIN'));
      expect(
        await statusesByRole(m, (a) =>
          request(t.http)
            .put(base)
            .set(a.session.auth)
            .send({ id: current.body.id, fullName: `By ${a.user.email}` }),
        ),
      ).toEqual(expectedStatuses(ALLOWED, 200));
      // POST: refused roles get 403 before the duplicate check (409) is reached.
      expect(
        await statusesByRole(m, (a) => request(t.http).post(base).set(a.session.auth).send({ fullName: 'Dup' })),
      ).toEqual(expectedStatuses(ALLOWED, 409));
      await request(t.http).get(`${base}/byMasterAccountId`).expect(401);
    });
  });

  it('the primary contact id is not the billing contact (404 across kinds)', async () => {
    const primary = await request(t.http)
      .get('/api/primaryBillingInformation/byMasterAccountId')
      .set(as('SITE_ADMIN'))
      .expect(200);
    await request(t.http)
      .put('/api/billingInformation')
      .set(as('SITE_ADMIN'))
      .send({ id: primary.body.id, fullName: 'Wrong kind' })
      .expect(404);
  });
});

import request from 'supertest';
import { readOutbox } from '../../utils/outbox';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

const SUPPORT_EMAIL = 'contact-desk@vendor.test';
const good = {
  name: 'Jane Citizen',
  email: 'jane@example.com',
  subject: 'Question about reports',
  message: 'How do I export a report?',
};

describe('Contact Us (spec 001 §2.10, §5, §7, §8)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_EMAIL });
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  // The trailing slash is the specification's path.
  const send = (body: object, auth: Record<string, string> = {}) =>
    request(t.http).post('/api/users/contact-email/').set(auth).send(body);

  it('every role (and a visitor who is not signed in) sends a message; it is e-mailed to SUPPORT_EMAIL', async () => {
    const statuses = await statusesByRole(m, (a) => send({ ...good, subject: `From ${a.user.email}` }, a.session.auth));
    expect(Object.values(statuses)).toEqual(Array(8).fill(200));
    const anonymous = await send({ ...good, subject: 'From a visitor' }).expect(200);
    expect(anonymous.body).toEqual({ success: true });

    const mails = (await readOutbox(t.dataDir)).filter((x) => x.to.includes(SUPPORT_EMAIL));
    const fromSiteAdmin = mails.find((x) => x.subject.includes(`From ${m.byRole.SITE_ADMIN.user.email}`));
    expect(fromSiteAdmin?.text).toContain('Jane Citizen <jane@example.com>');
    expect(fromSiteAdmin?.text).toContain('How do I export a report?');
    expect(fromSiteAdmin?.text).toContain(`Signed-in account: ${m.byRole.SITE_ADMIN.user.email}`);
    expect(mails.find((x) => x.subject.includes('From a visitor'))?.text).toContain('not signed in');
    // Another organisation's user is named as themselves.
    await send({ ...good, subject: 'From the other organisation' }, m.otherOrgAdmin.session.auth).expect(200);
    const other = (await readOutbox(t.dataDir)).find((x) => x.subject.includes('From the other organisation'));
    expect(other?.text).toContain(`Signed-in account: ${m.otherOrgAdmin.user.email}`);
  });

  describe('validation (the same rule as the form)', () => {
    // A fresh app: the endpoint allows 20 messages a minute from one address.
    let v: TestApp;
    beforeAll(async () => {
      v = await createTestApp({ SUPPORT_EMAIL });
    });
    afterAll(() => v.close());
    const check = (body: object) => request(v.http).post('/api/users/contact-email/').send(body);

    it.each([
      [{ ...good, name: '  ' }, 'Name is required'],
      [{ ...good, email: '' }, 'Email is required'],
      [{ ...good, email: 'jane example.com' }, 'Please enter a valid email'],
      [{ ...good, email: 'jane @example.com' }, 'Please enter a valid email'],
      [{ ...good, subject: '' }, 'Subject is required'],
      [{ ...good, message: '' }, 'Message is required'],
      [{ ...good, name: 'Jane <script>alert(1)</script>' }, 'Invalid characters detected'],
      [{ ...good, subject: 'Click JavaScript:alert(1)' }, 'Invalid characters detected'],
      [{ ...good, message: '<img src=x OnError=alert(1)>' }, 'Invalid characters detected'],
      [{ ...good, message: 'see <IFRAME src="x">' }, 'Invalid characters detected'],
      [{ ...good, message: '<object data="x">' }, 'Invalid characters detected'],
      [{ ...good, subject: '<embed src="x">' }, 'Invalid characters detected'],
    ])('refuses %j with 400 %s and sends nothing', async (body, message) => {
      const res = await check(body).expect(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400, message });
      expect(await readOutbox(v.dataDir)).toHaveLength(0);
    });

    it('refuses a missing field and unknown fields with 400', async () => {
      const { message: _omit, ...noMessage } = good;
      expect((await check(noMessage).expect(400)).body.message).toContain('Message is required');
      await check({ ...good, cc: 'someone@example.com' }).expect(400);
      expect(await readOutbox(v.dataDir)).toHaveLength(0);
    });

    it('refuses an event handler inside a tag, in every field the rule covers', async () => {
      for (const body of [
        { ...good, name: '<svg/onload=alert(1)>' },
        { ...good, subject: '<a href="x"onclick="y">' },
        { ...good, message: 'Hi <div class=x ONMOUSEOVER = "y">' },
      ]) {
        expect((await check(body).expect(400)).body.message).toBe('Invalid characters detected');
      }
      expect(await readOutbox(v.dataDir)).toHaveLength(0);
    });

    it('accepts plain text that only looks like an attribute: "Question one = yes", "online=true" (markup is refused, not words)', async () => {
      await check({
        ...good,
        name: 'Simone Onei',
        subject: 'Question one = yes',
        message: 'Status: online=true; fees < $5 and > $2; done=1',
      }).expect(200);
      await check({ ...good, subject: 'online=true', message: 'Question one = yes' }).expect(200);
      const sent = (await readOutbox(v.dataDir)).map((x) => x.text);
      expect(sent.some((text) => text.includes('online=true; fees < $5'))).toBe(true);
    });
  });

  it('limits one address to 20 messages a minute', async () => {
    const r = await createTestApp({ SUPPORT_EMAIL });
    try {
      for (let i = 0; i < 20; i++)
        await request(r.http)
          .post('/api/users/contact-email/')
          .send({ ...good, subject: `n${i}` })
          .expect(200);
      await request(r.http).post('/api/users/contact-email/').send(good).expect(429);
    } finally {
      await r.close();
    }
  });
});

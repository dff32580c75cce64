import request from 'supertest';
import { StoredFile } from '../../../src/platform/files/entities/stored-file.entity';
import { In } from 'typeorm';
import { LogoUpload } from '../../../src/administration/logo/entities/logo-upload.entity';
import { LogoService } from '../../../src/administration/logo/logo.service';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { createRoleMatrix, RoleMatrix, statusesByRole } from '../../utils/roles';
import { expectedStatuses, GIF_BYTES, JPEG_BYTES, PNG_BYTES, SVG_BYTES, WEBP_BYTES } from '../../utils/org-admin';
import { createTestApp, TestApp } from '../../utils/test-app';

const WRITERS = ['SITE_ADMIN', 'ADMINISTRATOR', 'STANDARD_ADMIN'];
const TEN_MB = 10 * 1024 * 1024;

describe('Organisation logo (spec 001 §4 logo upload, §5, §7, §8, §9)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const admin = () => m.byRole.SITE_ADMIN.session.auth;
  /** Whether the file store (shared by every instance) holds this logo. */
  const stored = (logoPath: string) =>
    t.db.getRepository(StoredFile).existsBy({ key: `logos/${logoPath.split('/').pop()}` });
  const askUrl = (auth: object, body: object) =>
    request(t.http)
      .post('/api/logo/get-upload-url')
      .set(auth as Record<string, string>)
      .send(body);
  const put = (url: string, bytes: Buffer, type = 'application/octet-stream') =>
    request(t.http).put(url).set('Content-Type', type).send(bytes);
  const png = { fileName: 'logo.png', fileSize: PNG_BYTES.length, mimeType: 'image/png' };

  it('takes the three steps: upload URL on this server, PUT the bytes, save; then every user of the organisation reads the path and the file is served as an image with nosniff', async () => {
    const before = await request(t.http).get('/api/logo/byMasterAccountId').set(admin()).expect(200);
    expect(before.body).toEqual({ logoPath: null });

    const { body } = await askUrl(admin(), png).expect(200);
    expect(body.uploadUrl).toMatch(/^\/api\/logo\/upload\/[\w-]+\.[\w-]+$/);
    expect(body.logoPath).toMatch(/^\/files\/logos\/[a-f0-9]{32}\.png$/);
    // Before the upload the path cannot be saved.
    await request(t.http).post('/api/logo/save').set(admin()).send({ logoPath: body.logoPath }).expect(400);

    await put(body.uploadUrl, PNG_BYTES, 'image/png').expect(200, { success: true, logoPath: body.logoPath });
    await request(t.http).post('/api/logo/save').set(admin()).send({ logoPath: body.logoPath }).expect(200);

    for (const code of ['VIEWER', 'CA_VIEWER', 'ADMINISTRATOR']) {
      const read = await request(t.http)
        .get('/api/logo/byMasterAccountId')
        .set(m.byRole[code].session.auth)
        .expect(200);
      expect(read.body).toEqual({ logoPath: body.logoPath });
    }
    const file = await request(t.http).get(body.logoPath).expect(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.body as Buffer, PNG_BYTES)).toBe(0);
    // Another organisation has its own (empty) logo.
    expect(
      (await request(t.http).get('/api/logo/byMasterAccountId').set(m.otherOrgAdmin.session.auth).expect(200)).body,
    ).toEqual({ logoPath: null });
  });

  it('a new logo replaces the old one, whose file is removed', async () => {
    const old = (await t.db.getRepository(Organisation).findOneByOrFail({ id: m.org.id })).logoPath!;
    expect(old).toBeTruthy();
    const { body } = await askUrl(admin(), {
      fileName: 'new.gif',
      fileSize: GIF_BYTES.length,
      mimeType: 'image/gif',
    }).expect(200);
    await put(body.uploadUrl, GIF_BYTES).expect(200);
    await request(t.http)
      .post('/api/logo/save')
      .set(m.byRole.STANDARD_ADMIN.session.auth)
      .send({ logoPath: body.logoPath })
      .expect(200);
    expect(await stored(old)).toBe(false);
    await request(t.http).get(old).expect(404);
    const gif = await request(t.http).get(body.logoPath).expect(200);
    expect(gif.headers['content-type']).toBe('image/gif');
  });

  it.each([
    ['JPEG', JPEG_BYTES, 'image/jpeg', 'jpg'],
    ['WebP', WEBP_BYTES, 'image/webp', 'webp'],
  ])('accepts a %s image', async (_name, bytes, mimeType, ext) => {
    const { body } = await askUrl(admin(), { fileName: `x.${ext}`, fileSize: bytes.length, mimeType }).expect(200);
    expect(body.logoPath.endsWith(`.${ext}`)).toBe(true);
    await put(body.uploadUrl, bytes).expect(200);
  });

  it('refuses to hand out a URL for a non-image type (SVG included), an oversized or empty file, or a missing name', async () => {
    for (const mimeType of ['image/svg+xml', 'text/html', 'application/pdf', '']) {
      const res = await askUrl(admin(), { ...png, mimeType }).expect(400);
      expect(res.body.message).toBe('The logo must be an image (PNG, JPEG, GIF or WebP).');
    }
    const big = await askUrl(admin(), { ...png, fileSize: TEN_MB + 1 }).expect(400);
    expect(big.body.message).toBe('The logo must not be larger than 10 MB.');
    await askUrl(admin(), { ...png, fileSize: TEN_MB }).expect(200);
    await askUrl(admin(), { ...png, fileSize: 0 }).expect(400);
    await askUrl(admin(), { ...png, fileName: '' }).expect(400);
    await askUrl(admin(), { ...png, extra: 1 }).expect(400);
  });

  it('refuses a non-image body even when the name and declared type say PNG, and spends the URL', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const { body } = await askUrl(admin(), {
      fileName: 'logo.png',
      fileSize: html.length,
      mimeType: 'image/png',
    }).expect(200);
    const res = await put(body.uploadUrl, html, 'image/png').expect(400);
    expect(res.body).toMatchObject({
      code: 'LOGO_NOT_IMAGE',
      message: 'The logo must be an image (PNG, JPEG, GIF or WebP).',
    });
    expect(await stored(body.logoPath)).toBe(false);
    await request(t.http).post('/api/logo/save').set(admin()).send({ logoPath: body.logoPath }).expect(400);
    await put(body.uploadUrl, PNG_BYTES).expect(409);
  });

  it('refuses an SVG body, and an image of another type than declared', async () => {
    const svg = await askUrl(admin(), {
      fileName: 'logo.png',
      fileSize: SVG_BYTES.length,
      mimeType: 'image/png',
    }).expect(200);
    await put(svg.body.uploadUrl, SVG_BYTES, 'image/svg+xml').expect(400);
    const gifAsPng = await askUrl(admin(), {
      fileName: 'logo.png',
      fileSize: GIF_BYTES.length,
      mimeType: 'image/png',
    }).expect(200);
    await put(gifAsPng.body.uploadUrl, GIF_BYTES).expect(400);
  });

  it('refuses a body of another size than declared, and one over 10 MB (413)', async () => {
    const { body } = await askUrl(admin(), { ...png, fileSize: PNG_BYTES.length + 5 }).expect(200);
    const res = await put(body.uploadUrl, PNG_BYTES).expect(400);
    expect(res.body.code).toBe('LOGO_SIZE_MISMATCH');
    const max = await askUrl(admin(), { ...png, fileSize: TEN_MB }).expect(200);
    const huge = Buffer.concat([PNG_BYTES, Buffer.alloc(TEN_MB + 1 - PNG_BYTES.length)]);
    const tooBig = await put(max.body.uploadUrl, huge).expect(413);
    expect(tooBig.body).toMatchObject({ success: false, message: 'The logo must not be larger than 10 MB.' });
  });

  it('a URL works once only', async () => {
    const { body } = await askUrl(admin(), png).expect(200);
    await put(body.uploadUrl, PNG_BYTES).expect(200);
    const again = await put(body.uploadUrl, PNG_BYTES).expect(409);
    expect(again.body).toMatchObject({ code: 'LOGO_URL_USED', message: 'This upload link has already been used.' });
  });

  it('refuses an expired URL', async () => {
    const { body } = await askUrl(admin(), png).expect(200);
    const realNow = Date.now;
    Date.now = () => realNow() + 6 * 60 * 1000;
    try {
      const res = await put(body.uploadUrl, PNG_BYTES).expect(403);
      expect(res.body).toMatchObject({
        code: 'LOGO_URL_EXPIRED',
        message: 'This upload link has expired. Please try again.',
      });
    } finally {
      Date.now = realNow;
    }
    // The grant also expires within minutes in the database.
    const nonceRows = await t.db.getRepository(LogoUpload).find({ order: { createdAt: 'DESC' }, take: 1 });
    expect(nonceRows[0].expiresAt.getTime() - nonceRows[0].createdAt.getTime()).toBeLessThanOrEqual(
      5 * 60 * 1000 + 2000,
    );
  });

  it('removes uploads never saved a day after their URL expired, and keeps the logo in use and recent uploads', async () => {
    const upload = async () => {
      const { body } = await askUrl(admin(), png).expect(200);
      await put(body.uploadUrl, PNG_BYTES).expect(200);
      return body.logoPath as string;
    };
    const shown = await upload();
    await request(t.http).post('/api/logo/save').set(admin()).send({ logoPath: shown }).expect(200);
    const abandoned = await upload();
    const never = await askUrl(admin(), png).expect(200); // a URL handed out and never used
    const service = t.app.get(LogoService);
    const inHours = (h: number) => new Date(Date.now() + h * 60 * 60 * 1000);

    // Within the day: nothing goes, and the abandoned upload can still be saved later.
    expect(await service.sweepUnsaved(inHours(12))).toBe(0);
    expect(await stored(abandoned)).toBe(true);

    // After it, in parallel on two "instances": the abandoned file and every stale record go once; the logo stays.
    const [a, b] = await Promise.all([service.sweepUnsaved(inHours(25)), service.sweepUnsaved(inHours(25))]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    expect(await stored(abandoned)).toBe(false);
    await request(t.http).get(abandoned).expect(404);
    expect(await stored(shown)).toBe(true);
    await request(t.http).get(shown).expect(200);
    const names = [shown, abandoned, never.body.logoPath].map((p: string) => p.split('/').pop()!);
    expect(await t.db.getRepository(LogoUpload).countBy({ storedName: In(names) })).toBe(0);
    const org = await t.db.getRepository(Organisation).findOneByOrFail({ id: m.org.id });
    expect(org.logoPath).toBe(shown);
  });

  it('does not save an upload the sweep may be removing (older than 23 hours)', async () => {
    const { body } = await askUrl(admin(), png).expect(200);
    await put(body.uploadUrl, PNG_BYTES).expect(200);
    const uploads = t.db.getRepository(LogoUpload);
    const storedName = body.logoPath.split('/').pop();
    const { expiresAt } = await uploads.findOneByOrFail({ storedName });
    const hours = (h: number) => new Date(expiresAt.getTime() - h * 60 * 60 * 1000);
    await uploads.update({ storedName }, { expiresAt: hours(23.5) });
    const res = await request(t.http).post('/api/logo/save').set(admin()).send({ logoPath: body.logoPath });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('LOGO_NOT_UPLOADED');
    // At 22 hours it still can.
    await uploads.update({ storedName }, { expiresAt: hours(22) });
    await request(t.http).post('/api/logo/save').set(admin()).send({ logoPath: body.logoPath }).expect(200);
  });

  it('refuses a tampered URL: changed size, organisation or signature', async () => {
    const { body } = await askUrl(admin(), png).expect(200);
    const [prefix, token] = [
      body.uploadUrl.slice(0, body.uploadUrl.lastIndexOf('/') + 1),
      body.uploadUrl.split('/').pop(),
    ];
    const [payload, signature] = token.split('.');
    const grant = JSON.parse(Buffer.from(payload, 'base64url').toString());
    for (const change of [{ s: TEN_MB }, { o: m.otherOrg.id }, { e: grant.e + 3600 }]) {
      const forged = Buffer.from(JSON.stringify({ ...grant, ...change })).toString('base64url');
      const res = await put(`${prefix}${forged}.${signature}`, PNG_BYTES).expect(403);
      expect(res.body.code).toBe('LOGO_URL_INVALID');
    }
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    await put(`${prefix}${payload}.${flipped}`, PNG_BYTES).expect(403);
    await put(`${prefix}garbage`, PNG_BYTES).expect(403);
    // The genuine URL still works: nothing above spent it.
    await put(body.uploadUrl, PNG_BYTES).expect(200);
  });

  it("cannot save another organisation's upload, nor a path outside the logos", async () => {
    const { body } = await askUrl(m.otherOrgAdmin.session.auth, png).expect(200);
    await put(body.uploadUrl, PNG_BYTES).expect(200);
    const res = await request(t.http).post('/api/logo/save').set(admin()).send({ logoPath: body.logoPath }).expect(400);
    expect(res.body.message).toBe('This logo has not been uploaded.');
    for (const logoPath of ['/files/logos/../../app.sqlite', '/etc/passwd', 'https://evil.test/x.png', '']) {
      await request(t.http).post('/api/logo/save').set(admin()).send({ logoPath }).expect(400);
    }
    await request(t.http).get('/files/logos/..%2Fapp.sqlite').expect(404);
    await request(t.http).get('/files/logos/jwt-secret').expect(404);
  });

  it('answers every role as the route table says', async () => {
    expect(await statusesByRole(m, (a) => askUrl(a.session.auth, png))).toEqual(expectedStatuses(WRITERS, 200));
    expect(
      await statusesByRole(m, (a) =>
        request(t.http)
          .post('/api/logo/save')
          .set(a.session.auth)
          .send({ logoPath: '/files/logos/' + 'a'.repeat(32) + '.png' }),
      ),
    ).toEqual(expectedStatuses(WRITERS, 400));
    const all = Object.keys(m.byRole);
    expect(
      await statusesByRole(m, (a) => request(t.http).get('/api/logo/byMasterAccountId').set(a.session.auth)),
    ).toEqual(expectedStatuses(all, 200));
    await request(t.http).get('/api/logo/byMasterAccountId').expect(401);
    await request(t.http).post('/api/logo/get-upload-url').send(png).expect(401);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../../platform/config/env.validation';
import { FileStore } from '../../platform/files/file-store';
import { FileLinksService, isSafeFileName, sanitiseFileName } from './file-links.service';
import { testSecret } from '../../../test/utils/secrets';

describe('FileLinksService (spec 001 §9: download links valid one hour)', () => {
  let dir: string;
  let links: FileLinksService;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'file-links-'));
    links = new FileLinksService({ dataDir: dir, jwtSecret: testSecret('jwt') } as AppConfig, {} as FileStore);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const parts = (link: string) => {
    const url = new URL(link, 'http://x');
    const [, , area, org, name] = url.pathname.split('/');
    return {
      area,
      org,
      name: decodeURIComponent(name),
      expires: url.searchParams.get('expires'),
      sig: url.searchParams.get('sig'),
    };
  };

  it('signs for exactly one hour and verifies its own signature until then', () => {
    const now = Date.UTC(2026, 0, 1);
    const p = parts(links.sign('reports', 4, 'a b.csv', now));
    expect(Number(p.expires)).toBe(now / 1000 + 3600);
    expect(links.verify('reports', p.org, p.name, p.expires, p.sig, now + 3599_000)).toEqual({
      area: 'reports',
      organisationId: 4,
      name: 'a b.csv',
    });
    expect(() => links.verify('reports', p.org, p.name, p.expires, p.sig, now + 3600_000)).toThrow(
      'This download link has expired.',
    );
  });

  it('refuses a link changed in any part, or signed with another secret', () => {
    const p = parts(links.sign('reports', 4, 'a b.csv'));
    const other = new FileLinksService(
      { dataDir: dir, jwtSecret: testSecret('other-jwt') } as AppConfig,
      {} as FileStore,
    );
    const q = parts(other.sign('reports', 4, 'a b.csv'));
    expect(() => links.verify('process-logs', p.org, p.name, p.expires, p.sig)).toThrow('not valid');
    expect(() => links.verify('reports', '5', p.name, p.expires, p.sig)).toThrow('not valid');
    expect(() => links.verify('reports', p.org, p.name, String(Number(p.expires) + 1), p.sig)).toThrow('not valid');
    expect(() => links.verify('reports', q.org, q.name, q.expires, q.sig)).toThrow('not valid');
    expect(() => links.verify('reports', p.org, p.name, p.expires, undefined)).toThrow('not valid');
  });

  it('only handles plain file names', () => {
    expect(isSafeFileName('../jwt-secret')).toBe(false);
    expect(isSafeFileName('.hidden')).toBe(false);
    expect(isSafeFileName('a/b')).toBe(false);
    expect(sanitiseFileName('../../x<y>.csv')).toBe('x_y_.csv');
    expect(links.parseReference('/files/reports/4/..%2Fjwt-secret')).toBeNull();
    expect(links.parseReference('/files/reports/4/a%20b.csv?expires=1&sig=x')).toEqual({
      area: 'reports',
      organisationId: 4,
      name: 'a b.csv',
    });
    expect(links.signReference('https://example.com/r?x=1')).toBe('https://example.com/r?x=1');
  });
});

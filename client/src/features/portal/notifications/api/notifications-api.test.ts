import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import { downloadReport } from './notifications-api';

describe('report download (spec 001 §7: GET of the link as a blob, saved with a sanitised name or Report_{timestamp})', () => {
  afterEach(() => vi.unstubAllGlobals());

  function captureSaves() {
    const saved: Array<{ name: string; href: string }> = [];
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    return saved;
  }

  it('fetches the signed link and saves the blob under the sanitised file name', async () => {
    const fetch = fakeServer({}, { unmatched: NO_SESSION });
    fetch.respond('GET', /^\/files\/reports\/3\//, 200, 'a,b');
    const saved = captureSaves();
    const name = await downloadReport('/files/reports/3/0123456789ab-cgt.csv?expires=9&sig=x', '../CGT: 2026.csv');
    expect(name).toBe('CGT_ 2026.csv');
    expect(saved).toEqual([{ name: 'CGT_ 2026.csv', href: 'blob:report' }]);
    expect(fetch.calls[0].url).toBe('/files/reports/3/0123456789ab-cgt.csv?expires=9&sig=x');
  });

  it('falls back to Report_{timestamp} without a usable name', async () => {
    const fetch = fakeServer({}, { unmatched: NO_SESSION });
    fetch.respond('GET', /^\/files\//, 200, 'x');
    const saved = captureSaves();
    vi.spyOn(Date, 'now').mockReturnValue(1_767_225_600_000);
    await downloadReport('/files/reports/3/%3F%3F?expires=9&sig=x', '');
    expect(saved[0].name).toBe('Report_1767225600000');
  });

  it("throws the server's message for an expired link", async () => {
    const fetch = fakeServer({}, { unmatched: NO_SESSION });
    fetch.respond('GET', /^\/files\//, 403, { success: false, message: 'This download link has expired.' });
    captureSaves();
    await expect(downloadReport('/files/reports/3/a.csv?expires=1&sig=x', 'a.csv')).rejects.toThrow(
      'This download link has expired.',
    );
  });
});

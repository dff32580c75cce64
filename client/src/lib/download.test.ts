import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from './api';
import { downloadFile, formatBytes } from './download';

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

describe('downloadFile', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it("sends the token, reports progress chunk by chunk and saves the file under the server's name", async () => {
    tokenStore.set('tok');
    const fetchMock = vi.fn().mockResolvedValue(
      new Response(streamOf(['id,x\r\n', '1,a\r\n']), {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="users-2026.csv"' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const progress: number[] = [];
    await downloadFile('api/users/export', 'users.csv', (p) => progress.push(p.received));
    expect(fetchMock.mock.calls[0][1].headers).toEqual({ Authorization: 'Bearer tok' });
    expect(progress).toEqual([0, 6, 11]);
    expect(click).toHaveBeenCalled();
  });

  it("refreshes once on 'jwt expired' and retries", async () => {
    tokenStore.set('old');
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify({ success: false, message: 'jwt expired' }), { status: 403 }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ newAccessToken: 'new' }), { status: 200 }))
      .mockResolvedValueOnce(new Response(streamOf(['a']), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await downloadFile('api/audit-events/export', 'audit.csv', () => {});
    expect(fetchMock.mock.calls[2][1].headers).toEqual({ Authorization: 'Bearer new' });
  });

  it('throws the server error for a refused export', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        new Response(JSON.stringify({ success: false, message: 'You do not have permission to do this.' }), {
          status: 403,
        }),
      ),
    );
    await expect(downloadFile('api/audit-events/export', 'a.csv', () => {})).rejects.toThrow(
      'You do not have permission',
    );
  });

  it('formats sizes', () => {
    expect(formatBytes(12)).toBe('12 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

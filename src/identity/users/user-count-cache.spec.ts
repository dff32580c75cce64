import { DataSource } from 'typeorm';
import { USER_COUNT_TTL_MS, UserCountCache } from './user-count-cache';

describe('UserCountCache.peekLarge', () => {
  const cache = () => new UserCountCache({ subscribers: [] } as unknown as DataSource);
  afterEach(() => jest.restoreAllMocks());

  it('gives the value held however old, so that its recomputation can start from it; nothing once invalidated', async () => {
    const c = cache();
    expect(c.peekLarge('list')).toBeUndefined();
    expect(await c.getLarge('list', () => Promise.resolve(1))).toBe(1);
    expect(await c.peekLarge('list')).toBe(1);

    // Past the TTL: the old value is answered while the new one is computed, and the computation sees it.
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + USER_COUNT_TTL_MS + 1);
    let seen: number | undefined;
    const again = await c.getLarge('list', async () => {
      seen = await c.peekLarge<number>('list');
      return (seen ?? 0) + 1;
    });
    expect(again).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toBe(1);
    expect(await c.peekLarge('list')).toBe(2);

    c.invalidate();
    expect(c.peekLarge('list')).toBeUndefined();
  });
});

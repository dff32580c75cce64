import { MemoryThrottlerStorage } from './memory-throttler.storage';

describe('MemoryThrottlerStorage', () => {
  let now = 1_000_000;
  const storage = () => new MemoryThrottlerStorage(() => now);

  it('counts one fixed window per key and name from its first hit, then starts a new one', async () => {
    const s = storage();
    now = 1_000_000;
    for (let i = 1; i <= 3; i++)
      expect(await s.increment('ip', 60_000, 5, 60_000, 'default')).toEqual({
        totalHits: i,
        timeToExpire: 60,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
    expect((await s.increment('other-ip', 60_000, 5, 60_000, 'default')).totalHits).toBe(1);
    expect((await s.increment('ip', 60_000, 5, 60_000, 'strict')).totalHits).toBe(1);
    now += 30_500;
    expect(await s.increment('ip', 60_000, 5, 60_000, 'default')).toMatchObject({ totalHits: 4, timeToExpire: 30 });
    now += 29_500;
    expect(await s.increment('ip', 60_000, 5, 60_000, 'default')).toMatchObject({ totalHits: 1, timeToExpire: 60 });
  });

  it('blocks past the limit for the block duration, counting nothing meanwhile, then counts afresh', async () => {
    const s = storage();
    now = 2_000_000;
    const hit = () => s.increment('acct', 10_000, 2, 30_000, 'default');
    for (let i = 0; i < 2; i++) await hit();
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 10, isBlocked: true, timeToBlockExpire: 30 });
    now += 20_000;
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 0, isBlocked: true, timeToBlockExpire: 10 });
    now += 10_000;
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('without a block duration, refuses until the window ends', async () => {
    const s = storage();
    now = 3_000_000;
    await s.increment('k', 10_000, 1, 0, 'default');
    expect(await s.increment('k', 10_000, 1, 0, 'default')).toMatchObject({ isBlocked: true, timeToBlockExpire: 10 });
    now += 10_000;
    expect(await s.increment('k', 10_000, 1, 0, 'default')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('drops ended windows as the map grows, keeping live ones and blocks', async () => {
    const s = storage();
    now = 4_000_000;
    await s.increment('blocked', 1_000, 0, 600_000, 'default');
    for (let i = 0; i < MemoryThrottlerStorage.PRUNE_ABOVE - 1; i++)
      await s.increment(`old${i}`, 1_000, 5, 0, 'default');
    now += 2_000;
    await s.increment('live', 60_000, 5, 0, 'default');
    await s.increment('new', 60_000, 5, 0, 'default');
    expect(s.size).toBe(3);
    expect(await s.increment('blocked', 1_000, 0, 600_000, 'default')).toMatchObject({ isBlocked: true });
    expect((await s.increment('live', 60_000, 5, 0, 'default')).totalHits).toBe(2);
  });
});

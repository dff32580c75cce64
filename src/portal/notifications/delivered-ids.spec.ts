import { DeliveredIds } from './delivered-ids';

describe('DeliveredIds', () => {
  it('answers true the first time an id is delivered, false after', () => {
    const ids = new DeliveredIds(1000);
    expect(ids.firstTime(1, 0)).toBe(true);
    expect(ids.firstTime(2, 10)).toBe(true);
    expect(ids.firstTime(1, 20)).toBe(false);
  });

  it('forgets ids after keepMs, except those delivered since a held time until released', () => {
    const ids = new DeliveredIds(1000);
    ids.firstTime(1, 0);
    ids.hold(500);
    ids.firstTime(2, 600);
    // Long past keepMs: the held id stays, the one before the hold goes.
    expect(ids.firstTime(2, 60_000)).toBe(false);
    expect(ids.firstTime(1, 60_000)).toBe(true);
    ids.release();
    expect(ids.firstTime(2, 120_000)).toBe(true);
  });

  it('keeps at most max ids, dropping the oldest', () => {
    const ids = new DeliveredIds(60_000, 3);
    for (const id of [1, 2, 3, 4]) ids.firstTime(id, id);
    expect(ids.firstTime(1, 10)).toBe(true);
    expect(ids.firstTime(4, 11)).toBe(false);
  });
});

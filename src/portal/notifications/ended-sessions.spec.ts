import { EndedSessions } from './ended-sessions';

describe('EndedSessions', () => {
  it('knows a session from its end for keepMs, then forgets it', () => {
    const ended = new EndedSessions(1000);
    ended.add('a', 0);
    expect(ended.has('a', 999)).toBe(true);
    expect(ended.has('b', 999)).toBe(false);
    expect(ended.has('a', 1001)).toBe(false);
  });

  it('answers for a handshake that began within half the keeping time, not for an older one', () => {
    const ended = new EndedSessions(1000);
    expect(ended.covers(0, 499)).toBe(true);
    expect(ended.covers(0, 500)).toBe(false);
  });

  it('answers for no handshake while sessions it let go for want of room could still matter', () => {
    const ended = new EndedSessions(1000, 2);
    ended.add('a', 0);
    ended.add('b', 1);
    expect(ended.covers(2, 2)).toBe(true);
    ended.add('c', 2);
    expect(ended.has('a', 3)).toBe(false);
    expect(ended.covers(3, 3)).toBe(false);
    expect(ended.covers(900, 1001)).toBe(false);
    expect(ended.covers(1000, 1002)).toBe(true);
  });

  it('answers for no handshake while the other instances may go unheard, nor for one begun before they were heard again', () => {
    const ended = new EndedSessions(60_000);
    ended.deaf();
    expect(ended.covers(Date.now(), Date.now())).toBe(false);
    ended.hearing(1000);
    expect(ended.covers(900, 1200)).toBe(false);
    expect(ended.covers(1100, 1200)).toBe(true);
  });
});

import { LocalSocketIndex } from './socket-index';

describe('LocalSocketIndex', () => {
  const a = { id: 'a' };
  const b = { id: 'b' };
  const c = { id: 'c' };

  it('keeps every socket of a key, once each, and forgets a key with its last socket', () => {
    const index = new LocalSocketIndex<string, { id: string }>();
    index.add('s1', a);
    index.add('s1', a);
    expect(index.get('s1')).toEqual([a]);
    index.add('s1', b);
    index.add('s1', c);
    expect(index.get('s1')).toEqual([a, b, c]);
    index.add('s2', c);
    index.remove('s1', b);
    expect(index.get('s1')).toEqual([a, c]);
    index.remove('s1', a);
    expect(index.get('s1')).toEqual([c]);
    index.remove('s1', b); // not there: nothing changes
    expect(index.get('s1')).toEqual([c]);
    index.remove('s1', c);
    expect(index.get('s1')).toEqual([]);
    expect(index.get('s2')).toEqual([c]);
    expect(index.size).toBe(1);
    index.remove('s2', c);
    expect(index.size).toBe(0);
  });

  it('answers a copy: sockets removed while their list is read do not disturb it', () => {
    const index = new LocalSocketIndex<number, { id: string }>();
    index.add(7, a);
    index.add(7, b);
    const seen: string[] = [];
    for (const socket of index.get(7)) {
      index.remove(7, socket);
      seen.push(socket.id);
    }
    expect(seen).toEqual(['a', 'b']);
    expect(index.size).toBe(0);
  });
});

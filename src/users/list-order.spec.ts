import { idsFromList, ListOrder } from './list-order';

describe('ListOrder', () => {
  it('reads the ids of idListSql in their order, the largest id included', () => {
    expect(Array.from(idsFromList('7,2147483647,1,65536'))).toEqual([7, 2_147_483_647, 1, 65536]);
    expect(Array.from(idsFromList('42'))).toEqual([42]);
    expect(idsFromList(null)).toHaveLength(0);
    expect(idsFromList('')).toHaveLength(0);
  });

  it.each([
    ['dense ids (a table by id)', (i: number) => 3 + ((i * 7919) % 1000) * 5],
    ['sparse ids (binary search)', (i: number) => 3 + ((i * 7919) % 1000) * 1_000_003],
  ])('places a few ids and many alike, ascending, ignoring ids not in the list: %s', (_, idAt) => {
    const order = Array.from({ length: 1000 }, (_, i) => idAt(i));
    const list = ListOrder.of(Uint32Array.from(order));
    const positionOf = new Map(order.map((id, p) => [id, p]));
    for (const wanted of [
      [order[500], order[3], 4, order[999]],
      order.filter((_, p) => p % 3 === 0).concat([1, 2, 4, 999_999, 2_147_483_647]),
    ]) {
      const expected = wanted
        .filter((id) => positionOf.has(id))
        .map((id) => positionOf.get(id)!)
        .sort((a, b) => a - b);
      const positions = list.positionsOf(Uint32Array.from(wanted.reverse()));
      expect(Array.from(positions)).toEqual(expected);
      expect(list.idsAt(positions)).toEqual(expected.map((p) => order[p]));
    }
    expect(list.size).toBe(1000);
    expect(list.positionsOf(new Uint32Array(0))).toHaveLength(0);
  });
});

import { idsFromList, ListOrder, MAX_INDEXED_LISTS } from './list-order';

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

describe('ListOrder.withTexts', () => {
  /** listTextSql's string of these users, in this order. */
  const spelled = (users: Array<[number, string, string]>) =>
    users.map(([id, name, email]) => `${id}\x03${name}\x01${email}`).join('\x02');
  const users: Array<[number, string, string]> = Array.from({ length: 300 }, (_, p) => [
    // Ids that hold digits no name or e-mail does ("8800"), out of order as a list's are.
    88000 + ((p * 37) % 300),
    p % 3 === 0 ? `Ada LOVELACE ${p}` : p % 3 === 1 ? `Zoë Müller ${p}` : `Łukasz Wałęsa-İnce ${p}`,
    `user${p}@Example.test`,
  ]);
  const list = ListOrder.withTexts(spelled(users))!;
  // The same list with its texts indexed (GramIndex): every search must find exactly what the scan finds.
  const indexed = ListOrder.withTexts(spelled(users))!;
  beforeAll(() => indexed.indexTexts());
  /** What the database's search finds: the name or the e-mail holds the text, case-insensitively. */
  const expected = (text: string) =>
    users.flatMap(([, name, email], p) =>
      name.toLowerCase().includes(text.toLowerCase()) || email.toLowerCase().includes(text.toLowerCase()) ? [p] : [],
    );

  it('reads the ids back in the list order', () => {
    expect(list.size).toBe(300);
    expect(list.idsAt([0, 1, 299])).toEqual([users[0][0], users[1][0], users[299][0]]);
    expect(Array.from(list.positionsOf(Uint32Array.from([users[5][0], 1])))).toEqual([5]);
  });

  it.each([
    ...[
      'ada',
      'LoveLace',
      'müller',
      'ZOË',
      'ë',
      'a',
      '1',
      '29',
      '@example',
      'e',
      'user1',
      ' 2',
      'nobody',
      '2 ',
      'ce 1',
    ],
    // Beyond U+00FF: hashed keys, whose users are checked.
    ...['ł', 'Ł', 'wał', 'łę', 'ęs', 'ka', 'İ', 'i̇nce', 'sa-i̇', 'łx', 'ęsa-'],
  ])('finds exactly the users whose name or e-mail holds %j, each once, and pages them', (text) => {
    const all = expected(text);
    expect(indexed['grams']).toBeDefined();
    for (const searched of [list, indexed]) {
      expect(searched.find(text, 0, 1000)).toEqual({ total: all.length, positions: all });
      expect(searched.find(text, 10, 25)).toEqual({ total: all.length, positions: all.slice(10, 35) });
      expect(searched.find(text, all.length, 5)).toEqual({ total: all.length, positions: [] });
    }
  });

  it('finds every user for an empty text, indexed or not (it has no character to look up)', () => {
    const everyone = users.map((_, p) => p);
    for (const searched of [list, indexed])
      expect(searched.find('', 5, 3)).toEqual({ total: users.length, positions: everyone.slice(5, 8) });
  });

  it('checks a text of three characters or more: holding each of its pairs is not holding it', async () => {
    const pairs = ListOrder.withTexts(
      spelled([
        [1, 'Abba Baab', 'ab@b.test'],
        [2, 'Aba Aba', 'x@y.test'],
      ]),
    )!;
    await pairs.indexTexts();
    expect(pairs.find('aba', 0, 5)).toEqual({ total: 1, positions: [1] });
    expect(pairs.find('abba', 0, 5)).toEqual({ total: 1, positions: [0] });
    expect(pairs.find('bab', 0, 5)).toEqual({ total: 0, positions: [] });
  });

  it('keeps the list read before, with its index, when its texts are read again unchanged', async () => {
    const again = ListOrder.withTexts(spelled(users), indexed);
    expect(again).toBe(indexed);
    const changed = spelled(users).replace('Ada LOVELACE 0', 'Ada Byron 0');
    const other = ListOrder.withTexts(changed, indexed)!;
    expect(other).not.toBe(indexed);
    await other.indexTexts();
    expect(other.find('byron', 0, 5)).toEqual({ total: 1, positions: [0] });
    expect(other.find('lovelace', 0, 0)?.total).toBe(expected('lovelace').length - 1);
  });

  it(`keeps the indexes of the last ${MAX_INDEXED_LISTS} lists indexed only, the others finding by scanning`, async () => {
    const lists = Array.from({ length: MAX_INDEXED_LISTS + 1 }, () => ListOrder.withTexts(spelled(users))!);
    for (const l of lists) await l.indexTexts();
    const hasIndex = (l: ListOrder) => l['grams'] !== undefined;
    expect(lists.map(hasIndex)).toEqual([false, ...Array<boolean>(MAX_INDEXED_LISTS).fill(true)]);
    expect(lists[0].find('müller', 3, 4)).toEqual({
      total: expected('müller').length,
      positions: expected('müller').slice(3, 7),
    });
    await lists[0].indexTexts();
    expect(lists.map(hasIndex)).toEqual([true, false, ...Array<boolean>(MAX_INDEXED_LISTS - 1).fill(true)]);
  });

  it('indexes a list larger than a build slice, and an empty one', async () => {
    const many: Array<[number, string, string]> = Array.from({ length: 20_000 }, (_, p) => [
      p + 1,
      `N${p % 7 === 0 ? 'q' : ''} ${p}`,
      `${p}@x.test`,
    ]);
    const big = ListOrder.withTexts(spelled(many))!;
    await big.indexTexts();
    const holding = (text: string) =>
      many.flatMap(([, name, email], p) => (`${name}`.toLowerCase().includes(text) || email.includes(text) ? [p] : []));
    for (const text of ['q', 'nq', 'q 1999', '19999@', 'x', '@x.test']) {
      const all = holding(text);
      expect(big.find(text, 3, 4)).toEqual({ total: all.length, positions: all.slice(3, 7) });
    }
    const empty = ListOrder.withTexts('')!;
    await empty.indexTexts();
    expect(empty.find('a', 0, 5)).toEqual({ total: 0, positions: [] });
  });

  it("never matches a user's id, nor across the name and the e-mail", async () => {
    // Indexed again if a test before dropped its index (MAX_INDEXED_LISTS).
    await indexed.indexTexts();
    expect(indexed['grams']).toBeDefined();
    for (const searched of [list, indexed]) {
      expect(searched.find('8800', 0, 10)).toEqual({ total: 0, positions: [] });
      expect(searched.find('88000', 0, 10)).toEqual({ total: 0, positions: [] });
      // "88" is in names and e-mails (and in every id): only those are found.
      expect(searched.find('88', 0, 300)).toEqual({ total: expected('88').length, positions: expected('88') });
      expect(searched.find('0user0', 0, 10)).toEqual({ total: 0, positions: [] });
      expect(searched.find('0u', 0, 10)).toEqual({ total: 0, positions: [] });
      expect(searched.find(`0\x01user0`, 0, 10)).toBeUndefined();
    }
  });

  it('refuses a string that cannot be read back user by user (a separator in a name or an e-mail)', () => {
    expect(ListOrder.withTexts(spelled([[1, 'A\x02B', 'a@b.test']]))).toBeUndefined();
    expect(ListOrder.withTexts(spelled([[1, 'A\x03B', 'a@b.test']]))).toBeUndefined();
    expect(ListOrder.withTexts(`x1\x03Ann\x01a@b.test`)).toBeUndefined();
    expect(ListOrder.withTexts(`\x03Ann\x01a@b.test`)).toBeUndefined();
    expect(ListOrder.withTexts(spelled([[1, 'A\x01B', 'a@b.test']]))?.find('a', 0, 5)).toEqual({
      total: 1,
      positions: [0],
    });
  });

  it('has no texts to search when built from ids alone, and an empty list finds nothing', () => {
    expect(ListOrder.of(Uint32Array.from([1, 2])).find('a', 0, 10)).toBeUndefined();
    expect(ListOrder.withTexts(null)?.find('a', 0, 10)).toEqual({ total: 0, positions: [] });
    expect(ListOrder.withTexts('')?.size).toBe(0);
  });
});

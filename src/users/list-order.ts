/**
 * The order of an organisation's user list as plain arrays, so that a text search with many matches finds its
 * page without reading every matching row (issue 16): the text index gives the matching ids, this gives each
 * one's position in the list, and the page is the matches at the smallest positions.
 */

/**
 * SQL that reads a column of ids as one string, "12,7,…": a row per id costs several times more. Use it over the
 * rows themselves: on SQLite, over a subquery that orders them, it reads them in that order (PostgreSQL promises no
 * order: build an array from the ordered subquery there).
 */
export function idListSql(column: string, postgres = false): string {
  return postgres ? `string_agg(${column}::text, ',')` : `group_concat(${column}, ',')`;
}

/** The ids of idListSql's string, in its order. */
export function idsFromList(list: string | null | undefined): Uint32Array {
  if (!list) return new Uint32Array(0);
  let count = 1;
  for (let i = 0; i < list.length; i++) if (list.charCodeAt(i) === 44) count++;
  const ids = new Uint32Array(count);
  let k = 0;
  let value = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list.charCodeAt(i);
    if (c === 44) {
      ids[k++] = value;
      value = 0;
    } else value = value * 10 + (c - 48);
  }
  ids[k] = value;
  return ids;
}

/** A table indexed by id serves lists whose ids span at most this many times their number (others interleave). */
const SLOTS_PER_ID = 16;

export class ListOrder {
  private constructor(
    /** The ids in the list's order. */
    private readonly order: Uint32Array,
    /** When the ids are dense enough: each id's position + 1 at index id - low (0: not in the list). */
    private readonly slots: Uint32Array | undefined,
    private readonly low: number,
    /** Otherwise: the ids ascending, each beside its position in the list. */
    private readonly sortedIds: Uint32Array,
    private readonly positions: Uint32Array,
  ) {}

  /** The list whose ids, in order, are these. */
  static of(order: Uint32Array): ListOrder {
    const n = order.length;
    let low = Infinity;
    let high = -1;
    for (const id of order) {
      if (id < low) low = id;
      if (id > high) high = id;
    }
    if (n > 0 && high - low < SLOTS_PER_ID * n) {
      const slots = new Uint32Array(high - low + 1);
      for (let p = 0; p < n; p++) slots[order[p] - low] = p + 1;
      return new ListOrder(order, slots, low, new Uint32Array(0), new Uint32Array(0));
    }
    // Sparse ids (other organisations' in between): the positions sorted by their id, for a binary search.
    const positions = Uint32Array.from(order.keys()).sort((a, b) => order[a] - order[b]);
    const sortedIds = positions.map((p) => order[p]);
    return new ListOrder(order, undefined, 0, sortedIds, positions);
  }

  get size(): number {
    return this.order.length;
  }

  /** The positions in the list of those of `ids` it holds (others are ignored), ascending. */
  positionsOf(ids: Uint32Array): Uint32Array {
    const many = ids.length * 20 >= this.order.length;
    // Many are marked, then read in order in one pass; a few are collected and sorted.
    const marked = many ? new Uint8Array(this.order.length) : undefined;
    const found = new Uint32Array(ids.length);
    let k = 0;
    const place = (p: number) => {
      if (marked) marked[p] = 1;
      else found[k++] = p;
    };
    const { slots, low, sortedIds, positions } = this;
    if (slots) {
      for (const id of ids) {
        const slot = id >= low ? slots[id - low] : 0;
        if (slot) place(slot - 1);
      }
    } else {
      for (const id of ids) {
        let lo = 0;
        let hi = sortedIds.length - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >>> 1;
          if (sortedIds[mid] < id) lo = mid + 1;
          else if (sortedIds[mid] > id) hi = mid - 1;
          else {
            place(positions[mid]);
            break;
          }
        }
      }
    }
    if (!marked) return found.subarray(0, k).sort();
    for (let p = 0; p < marked.length; p++) if (marked[p]) found[k++] = p;
    return found.subarray(0, k);
  }

  /** The ids at these positions. */
  idsAt(positions: ArrayLike<number>): number[] {
    return Array.from(positions, (p) => this.order[p]);
  }
}

/**
 * The order of an organisation's user list as plain arrays, so that a text search finds its page without reading
 * every matching row: the text index gives the matching ids, this gives each one's position in the
 * list, and the page is the matches at the smallest positions. For a text many users hold (which no index narrows),
 * the list can also carry each user's name and e-mail, in its order, to be searched in memory.
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

/**
 * listTextSql's separators: \x02 between users, \x03 after a user's id, \x01 between the name and the e-mail (so
 * that no text matches across the two, as the database's search does not). A text holding one is searched by
 * the database (isListText); a name or an e-mail holding one leaves the list without its texts (ListOrder.withTexts).
 */
const USER_SEPARATOR = '\x02';
const ID_SEPARATOR = '\x03';

/**
 * The SQL expression of one user `alias` of the list as listTextSql's string spells it: `id \x03 first last \x01
 * e-mail`. `chr` is the database's function of a character code (SQLite: char, PostgreSQL: chr).
 */
export function listTextEntrySql(alias: string, chr: 'char' | 'chr'): string {
  return `CAST(${alias}."id" AS TEXT) || ${chr}(3) || ${alias}."firstName" || ' ' || ${alias}."lastName" || ${chr}(1) || ${alias}."email"`;
}

/** Whether a search text can be looked for in a list's texts: it holds none of their separators. */
export function isListText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) <= 3) return false;
  return true;
}

/** A table indexed by id serves lists whose ids span at most this many times their number (others interleave). */
const SLOTS_PER_ID = 16;

/**
 * GramIndex's keys: a character, then a pair of characters, each exact below U+0100 (what names and e-mails mostly
 * spell) and otherwise one of a few hashed keys, which several pairs share (their users are then checked).
 */
const CHAR_KEYS = 512;
const PAIR_KEYS = 65536 + 4096;
const charKey = (c: number): number => (c < 256 ? c : 256 + (c & 255));
const pairKey = (a: number, b: number): number =>
  CHAR_KEYS + (a < 256 && b < 256 ? (a << 8) | b : 65536 + ((a * 31 + b) & 4095));
/** Users indexed between two turns of the event loop while a GramIndex is built, so requests are answered meanwhile. */
const GRAM_BUILD_SLICE = 8192;
/**
 * At most this many lists keep a GramIndex at once (its memory per user: docs/decisions/perf-user-list-and-search.md); indexing
 * another drops the index of the one indexed first (which finds by scanning again, and is indexed anew when its
 * texts are read again). A role or access filter makes a list of its own.
 */
export const MAX_INDEXED_LISTS = 2;
const indexedLists: ListOrder[] = [];

/**
 * For each character and each pair of adjacent characters of the list's texts (never across the name and the
 * e-mail), the positions of the users holding it, ascending (so in the list's order): a text of one or two
 * characters is found without reading any text, a longer one by checking only the users holding its rarer pairs.
 * About 55 positions (220 bytes) a user for names and e-mails of about 40 characters; built in slices that yield
 * to the event loop.
 */
class GramIndex {
  private constructor(
    /** Each key's positions: postings[offsets[key]] to postings[offsets[key + 1]]. */
    private readonly offsets: Uint32Array,
    private readonly postings: Uint32Array,
    private readonly users: number,
  ) {}

  static async build(texts: string, textBounds: Uint32Array): Promise<GramIndex> {
    const keys = CHAR_KEYS + PAIR_KEYS;
    const users = textBounds.length / 2;
    const counts = new Uint32Array(keys);
    const offsets = new Uint32Array(keys + 1);
    let postings = new Uint32Array(0);
    // Two passes over the users (counting, then placing); each user at most once a key (lastUser).
    for (const placing of [false, true]) {
      const lastUser = new Int32Array(keys).fill(-1);
      const next = placing ? offsets.slice(0, keys) : undefined;
      const add = (key: number, user: number) => {
        if (lastUser[key] === user) return;
        lastUser[key] = user;
        if (next) postings[next[key]++] = user;
        else counts[key]++;
      };
      for (let from = 0; from < users; from += GRAM_BUILD_SLICE) {
        if (from > 0) await new Promise((resolve) => setImmediate(resolve));
        for (let user = from; user < Math.min(users, from + GRAM_BUILD_SLICE); user++) {
          let previous = -1;
          for (let i = textBounds[2 * user]; i < textBounds[2 * user + 1]; i++) {
            const c = texts.charCodeAt(i);
            // The name's and the e-mail's separator (or one in a name): no text to find spans it.
            if (c === 1) {
              previous = -1;
              continue;
            }
            add(charKey(c), user);
            if (previous !== -1) add(pairKey(previous, c), user);
            previous = c;
          }
        }
      }
      if (!placing) {
        for (let key = 0; key < keys; key++) offsets[key + 1] = offsets[key] + counts[key];
        postings = new Uint32Array(offsets[keys]);
      }
    }
    return new GramIndex(offsets, postings, users);
  }

  /**
   * The positions of the users that may hold `wanted` (lower case, no separator), ascending, every user that does
   * among them; `exact` when they all do (one or two characters below U+0100).
   */
  candidates(wanted: string): { positions: Uint32Array; exact: boolean } {
    const of = (key: number) => this.postings.subarray(this.offsets[key], this.offsets[key + 1]);
    if (wanted.length === 1) {
      const c = wanted.charCodeAt(0);
      return { positions: of(charKey(c)), exact: c < 256 };
    }
    const keys = new Set<number>();
    let latin1 = true;
    for (let i = 0; i + 1 < wanted.length; i++) {
      const a = wanted.charCodeAt(i);
      const b = wanted.charCodeAt(i + 1);
      keys.add(pairKey(a, b));
      if (a >= 256 || b >= 256) latin1 = false;
    }
    // The users holding the rarest pair, narrowed by the next rarest ones; not by a pair most users hold (it would
    // remove few, at the cost of a pass over it).
    const lists = [...keys].map(of).sort((x, y) => x.length - y.length);
    let positions = lists[0];
    for (let i = 1; i < lists.length && positions.length > 0 && lists[i].length <= this.users / 2; i++)
      positions = intersect(positions, lists[i]);
    return { positions, exact: wanted.length === 2 && latin1 };
  }
}

/** The values both ascending lists hold; `small` the shorter (each of its values sought in `large` by galloping). */
function intersect(small: Uint32Array, large: Uint32Array): Uint32Array {
  const out = new Uint32Array(small.length);
  let n = 0;
  let lo = 0;
  for (let i = 0; i < small.length && lo < large.length; i++) {
    const value = small[i];
    // Gallop: the first of large not below value lies in (lo, hi].
    let step = 1;
    let hi = lo;
    while (hi < large.length && large[hi] < value) {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    if (hi >= large.length) hi = large.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (large[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    if (large[lo] === value) out[n++] = value;
  }
  return out.subarray(0, n);
}

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
    /** withTexts: listTextSql's string in lower case, and where each user's text starts and ends in it. */
    private readonly texts?: string,
    private readonly textBounds?: Uint32Array,
  ) {}

  /** withTexts, once indexTexts has built it. */
  private grams?: GramIndex;
  private gramsBuilt?: Promise<void>;

  /** The list whose ids, in order, are these. */
  static of(order: Uint32Array, texts?: string, textBounds?: Uint32Array): ListOrder {
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
      return new ListOrder(order, slots, low, new Uint32Array(0), new Uint32Array(0), texts, textBounds);
    }
    // Sparse ids (other organisations' in between): the positions sorted by their id, for a binary search.
    const positions = Uint32Array.from(order.keys()).sort((a, b) => order[a] - order[b]);
    const sortedIds = positions.map((p) => order[p]);
    return new ListOrder(order, undefined, 0, sortedIds, positions, texts, textBounds);
  }

  /**
   * The list of listTextSql's string (its users in order), able to find a text in memory (find); undefined when a
   * name or an e-mail holds one of the separators, so that the string cannot be read back user by user.
   * Lower case as JavaScript folds it, as the text indexes fold the text (FTS5's trigram tokenizer, PostgreSQL's
   * lower()) but for a few letters of special casing.
   */
  static withTexts(list: string | null | undefined, previous?: ListOrder): ListOrder | undefined {
    const texts = (list ?? '').toLowerCase();
    // The same texts as the list read before (read again at the end of its cache's TTL): that one, with its index.
    if (previous?.texts !== undefined && previous.texts === texts) return previous;
    const ids: number[] = [];
    const bounds: number[] = [];
    for (let at = 0; at < texts.length;) {
      const next = texts.indexOf(USER_SEPARATOR, at);
      const end = next === -1 ? texts.length : next;
      const idEnd = texts.indexOf(ID_SEPARATOR, at);
      // Each user: an id's digits, its separator, then a text without another.
      if (idEnd <= at || idEnd > end || idEnd - at > 10) return undefined;
      const second = texts.indexOf(ID_SEPARATOR, idEnd + 1);
      if (second !== -1 && second < end) return undefined;
      let id = 0;
      for (let i = at; i < idEnd; i++) {
        const digit = texts.charCodeAt(i) - 48;
        if (digit < 0 || digit > 9) return undefined;
        id = id * 10 + digit;
      }
      ids.push(id);
      bounds.push(idEnd + 1, end);
      at = end + 1;
    }
    return ListOrder.of(Uint32Array.from(ids), texts, Uint32Array.from(bounds));
  }

  /**
   * withTexts: how many users of the list hold `text` (case-insensitive, every character literal; isListText) in
   * their name or e-mail, and the positions of those from the `skip`-th on, `take` at most; undefined without
   * texts.
   */
  find(text: string, skip: number, take: number): { total: number; positions: number[] } | undefined {
    const { texts, textBounds } = this;
    if (texts === undefined || textBounds === undefined || !isListText(text)) return undefined;
    const wanted = text.toLowerCase();
    const users = textBounds.length / 2;
    // An empty text (every user holds it) has no character to look up: the scan counts every user.
    const candidates = wanted.length > 0 ? this.grams?.candidates(wanted) : undefined;
    if (candidates?.exact) {
      const { positions } = candidates;
      return { total: positions.length, positions: Array.from(positions.subarray(skip, skip + take)) };
    }
    if (candidates) {
      // Each candidate's own text checked: cheaper than a scan of the whole string even when most users hold it.
      const positions: number[] = [];
      let total = 0;
      for (const user of candidates.positions) {
        if (!texts.slice(textBounds[2 * user], textBounds[2 * user + 1]).includes(wanted)) continue;
        if (total >= skip && positions.length < take) positions.push(user);
        total++;
      }
      return { total, positions };
    }
    // Without the index: through the whole string, each match found once.
    const positions: number[] = [];
    let total = 0;
    let user = 0;
    let at = users > 0 ? texts.indexOf(wanted, textBounds[0]) : -1;
    while (at !== -1) {
      // The last user whose text starts at or before `at` (a binary search from the last one found).
      let lo = user;
      let hi = users - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (textBounds[2 * mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      user = lo;
      // Past that text's end, `at` lies in the next user's id (the text holds no separator to span them).
      if (at < textBounds[2 * user + 1]) {
        if (total >= skip && positions.length < take) positions.push(user);
        total++;
      }
      // Each user once: on from the next one's text.
      if (++user >= users) break;
      at = texts.indexOf(wanted, textBounds[2 * user]);
    }
    return { total, positions };
  }

  /**
   * withTexts: builds the index of its texts that find then uses (GramIndex), in slices between which the event
   * loop runs; find scans the texts meanwhile. Resolves once it is built (at once when there are no texts). Only
   * the last MAX_INDEXED_LISTS lists indexed keep theirs.
   */
  indexTexts(): Promise<void> {
    const { texts, textBounds } = this;
    if (texts === undefined || textBounds === undefined) return Promise.resolve();
    this.gramsBuilt ??= GramIndex.build(texts, textBounds).then((grams) => {
      this.grams = grams;
      indexedLists.push(this);
      while (indexedLists.length > MAX_INDEXED_LISTS) indexedLists.shift()!.dropIndex();
    });
    return this.gramsBuilt;
  }

  private dropIndex(): void {
    this.grams = undefined;
    this.gramsBuilt = undefined;
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

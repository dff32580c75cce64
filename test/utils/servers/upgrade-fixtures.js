// Upgrade fixtures (test/fixtures/upgrade/, made by scripts/make-upgrade-fixtures.js): the database of an earlier
// release, as that release's migrations built it, loaded into a fresh SQLite file or PostgreSQL database.
//
// Each fixture holds, per engine, the schema that release's migrations built (with the rows they wrote themselves,
// such as their own bookkeeping) and, shared by both engines, the rows the fixture adds: one JSON document whose
// values this loader writes in each engine's own representation (booleans, dates, binary), by the column types it
// finds in the loaded schema. Plain CommonJS: the generator script and the e2e spec share it.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const FIXTURES_DIR = join(__dirname, '..', '..', 'fixtures', 'upgrade');

/** The fixtures' index: one entry per released schema, oldest first. */
function listFixtures() {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, 'index.json'), 'utf8')).fixtures;
}

/** One fixture's manifest (`manifest.json`) and rows (`data.json`). */
function readFixture(name) {
  const dir = join(FIXTURES_DIR, name);
  return {
    dir,
    manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')),
    data: JSON.parse(readFileSync(join(dir, 'data.json'), 'utf8')),
    schema: (engine) => readFileSync(join(dir, `schema.${engine}.sql`), 'utf8'),
  };
}

/** A connection the loader can use: SQLite through the sqlite3 module, PostgreSQL through pg. */
async function openSqlite(file) {
  const sqlite3 = require('sqlite3');
  const db = await new Promise((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const all = (sql, params = []) =>
    new Promise((resolve, reject) => db.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))));
  return {
    engine: 'sqlite',
    query: all,
    exec: (sql) => new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve()))),
    close: () => new Promise((resolve) => db.close(() => resolve())),
  };
}

async function openPostgres(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(`SET TIME ZONE 'UTC'`);
  return {
    engine: 'postgres',
    query: async (sql, params = []) => (await client.query(sql, params)).rows,
    exec: async (sql) => {
      await client.query(sql);
      // pg_dump's script empties the search path for its own session; the loader names tables unqualified.
      await client.query('SET search_path TO public');
    },
    close: () => client.end(),
  };
}

const quote = (name) => `"${name.replace(/"/g, '""')}"`;

/** Each column's kind in the loaded schema: 'date', 'boolean', 'binary', 'bigint' or 'plain'. */
async function columnKinds(conn, table) {
  if (conn.engine === 'sqlite') {
    const columns = await conn.query(`PRAGMA table_info(${quote(table)})`);
    const kind = (type) => {
      const t = String(type).toLowerCase();
      if (t === 'datetime' || t === 'date' || t.startsWith('timestamp')) return 'date';
      if (t === 'boolean') return 'boolean';
      if (t === 'blob') return 'binary';
      return 'plain';
    };
    return new Map(columns.map((c) => [c.name, kind(c.type)]));
  }
  const columns = await conn.query(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = $1`,
    [table],
  );
  const kind = (type) => {
    if (type.startsWith('timestamp') || type === 'date') return 'date';
    if (type === 'boolean') return 'boolean';
    if (type === 'bytea') return 'binary';
    if (type === 'bigint') return 'bigint';
    return 'plain';
  };
  return new Map(columns.map((c) => [c.name, kind(c.type)]));
}

/** TypeORM's SQLite form of a date: UTC, 'YYYY-MM-DD HH:MM:SS.SSS'. */
const sqliteDate = (d) => d.toISOString().replace('T', ' ').replace('Z', '');

/** A JSON value of data.json as this engine stores it in a column of this kind; dates moved by `shiftMs`. */
function toEngine(engine, kind, value, shiftMs) {
  if (value === null) return null;
  if (kind === 'date') {
    const d = new Date(new Date(value).getTime() + shiftMs);
    return engine === 'sqlite' ? sqliteDate(d) : d.toISOString();
  }
  if (kind === 'boolean') return engine === 'sqlite' ? (value ? 1 : 0) : Boolean(value);
  if (kind === 'binary') return Buffer.from(value.base64, 'base64');
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** A value as read from this engine, in data.json's form (for comparing what was loaded with what was meant). */
function fromEngine(engine, kind, value) {
  if (value === null || value === undefined) return null;
  if (kind === 'date') {
    const d =
      value instanceof Date ? value : new Date(engine === 'sqlite' ? `${String(value).replace(' ', 'T')}Z` : value);
    return d.toISOString();
  }
  if (kind === 'boolean') return engine === 'sqlite' ? Number(value) !== 0 : Boolean(value);
  if (kind === 'binary') return { base64: Buffer.from(value).toString('base64') };
  // pg reads int8 as a string (it may not fit a number); the fixtures' values all do.
  if (kind === 'bigint' || typeof value === 'bigint') return Number(value);
  return value;
}

/** The release's schema, as its migrations left it (with the rows they wrote themselves). */
async function loadSchema(conn, sql) {
  await conn.exec(sql);
}

/**
 * Inserts data.json's rows, table by table in its order (parents first), each column in the form this engine
 * stores it, dates moved forward by `shiftMs` (so a fixture reads as written moments ago: its sessions unexpired).
 * On PostgreSQL the id sequences then continue after the inserted ids, as they would have after real inserts.
 */
async function loadRows(conn, data, shiftMs = 0) {
  for (const table of data.tables) {
    const kinds = await columnKinds(conn, table.name);
    for (const column of table.columns) {
      if (!kinds.has(column)) throw new Error(`${table.name}.${column}: no such column in this schema`);
    }
    const names = table.columns.map(quote).join(', ');
    const marks = table.columns.map((_, i) => (conn.engine === 'sqlite' ? '?' : `$${i + 1}`)).join(', ');
    const sql = `INSERT INTO ${quote(table.name)} (${names}) VALUES (${marks})`;
    for (const row of table.rows) {
      await conn.query(
        sql,
        row.map((v, i) => toEngine(conn.engine, kinds.get(table.columns[i]), v, shiftMs)),
      );
    }
  }
  if (conn.engine === 'postgres') {
    const serials = await conn.query(
      `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
       WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'`,
    );
    for (const { table, column } of serials) {
      await conn.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT MAX(${quote(column)}) FROM ${quote(table)}), 1))`,
        [quote(table), column],
      );
    }
  }
}

/** The rows of `table` (the given columns, ordered by them), in data.json's form. */
async function readRows(conn, table, columns) {
  const kinds = await columnKinds(conn, table);
  const names = columns.map(quote).join(', ');
  const order = columns.map((_, i) => i + 1).join(', ');
  const rows = await conn.query(`SELECT ${names} FROM ${quote(table)} ORDER BY ${order}`);
  return rows.map((r) => columns.map((c) => fromEngine(conn.engine, kinds.get(c), r[c])));
}

/** The tables of the loaded schema that hold rows of their own (not a full-text index's or the engine's own). */
async function dataTables(conn) {
  if (conn.engine === 'sqlite') {
    const rows = await conn.query(
      `SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'`,
    );
    return rows.map((r) => r.name).sort();
  }
  const rows = await conn.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
  return rows.map((r) => r.name).sort();
}

/** Rows per table. */
async function rowCounts(conn, tables) {
  const counts = {};
  for (const table of tables) {
    const [row] = await conn.query(`SELECT COUNT(*) AS n FROM ${quote(table)}`);
    counts[table] = Number(row.n);
  }
  return counts;
}

module.exports = {
  FIXTURES_DIR,
  listFixtures,
  readFixture,
  openSqlite,
  openPostgres,
  loadSchema,
  loadRows,
  readRows,
  dataTables,
  rowCounts,
};

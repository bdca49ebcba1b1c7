// The benchmark suite's datasets (bench/suite.mjs), written once and cached in bench/data/, in
// one folder per group of files: `suite-<rows>-<version>/` (the first four files below) and
// `suite-duckdb-<rows>-<version>/` (DuckDB with chosen codecs and row groups). A group's
// <version> is a hash of everything that shapes its files (the generating SQL, the writers'
// options, the group's scheme name): changing any of it writes a new folder for that group and
// deletes that group's stale folders for the same row count; the other group's stay valid.
// (The groups have folders of their own so that adding the DuckDB codec files left the hash,
// hence the folder, of the first four unchanged: their cached 20M-row files stay valid.) Each
// file is written to NAME.tmp and renamed when complete, so an existing file is a complete one.
//
// The same rows eight times: written by DuckDB (its defaults), by Polars (`writeParquet`, its
// defaults, from DuckDB's file), by `pqsift convert` (its defaults: page index, row groups of
// 1,000,000 rows; plus a bloom filter on `key`), by `pqsift convert` as a single row group, and
// by DuckDB four more times: ZSTD and SNAPPY, each with ROW_GROUP_SIZE 1000000 and as a single
// row group (DuckDB writes one data page per column chunk and no page index).
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadDuckDB, loadPolars, sql } from './common.mjs';

export const FULL_ROWS = 20_000_000;
export const CATEGORIES = ['eu', 'us', 'apac', 'latam', 'mea', 'na', 'emea', 'anz'];
export const TYPES = { id: 'int64', ts: 'timestamp_us', category: 'string', price: 'double', qty: 'int32', note: 'string', key: 'string' };
export const COLUMNS = Object.keys(TYPES);
export const FIRST_TS = '2026-01-01';

// Microseconds between consecutive rows: ts spans the same 231 days whatever the row count (one
// second per row at 20M rows).
export const tsStepUs = (rows) => Math.round((FULL_ROWS * 1e6) / rows);

// The `key` of row `id`: 16 hex characters (16 bytes), unique and in random order, so that
// neither min/max nor a dictionary can prune it; only a bloom filter can.
export const keyOf = (id) => createHash('md5').update(`k${id}`).digest('hex').slice(0, 16);

export function generatorSql(rows) {
  const categories = `[${CATEGORIES.map(sql).join(', ')}]`;
  return `SELECT i::BIGINT AS id,
                 TIMESTAMP '${FIRST_TS}' + to_microseconds(i * ${tsStepUs(rows)}) AS ts,
                 ${categories}[1 + (hash(i) % ${CATEGORIES.length})::INTEGER] AS category,
                 ((hash(i * 3) % 10000000) / 100.0)::DOUBLE AS price,
                 (hash(i * 7) % 100)::INTEGER AS qty,
                 'note ' || md5(i::VARCHAR)[1:15] AS note,
                 md5('k' || i::VARCHAR)[1:16] AS key
          FROM range(${rows}) t(i)`;
}

// name -> how it is written. `from` names the file it is converted from. Do not change these
// four objects (nor the scheme name) without meaning to: they are hashed into the folder name of
// the cached files.
function coreSpecs(rows) {
  return {
    duckdb: { writer: 'DuckDB', how: 'COPY ... (FORMAT parquet) (DuckDB defaults)', sql: generatorSql(rows) },
    polars: { writer: 'Polars', how: 'writeParquet(FILE) (nodejs-polars defaults) of readParquet(duckdb file)', from: 'duckdb' },
    pqsift: { writer: 'pqsift', how: 'pqsift convert --bloom-filter key (defaults: page index, row groups of 1,000,000 rows)',
              from: 'duckdb', convert: ['--bloom-filter', 'key'] },
    pqsift_1rg: { writer: 'pqsift, one row group', how: `pqsift convert --bloom-filter key --row-group-rows ${rows}`,
                  from: 'duckdb', convert: ['--bloom-filter', 'key', '--row-group-rows', String(rows)] },
  };
}

// DuckDB with a codec and a row group size (`copy`: the COPY options after FORMAT parquet),
// written from the generator like `duckdb`. `rowGroups`: how many row groups the file must have
// (checked after writing; DuckDB rounds ROW_GROUP_SIZE up to a multiple of 2048 rows).
function duckdbCodecSpecs(rows) {
  const spec = (codec, rowGroupSize) => {
    const copy = `COMPRESSION ${codec}, ROW_GROUP_SIZE ${rowGroupSize}`;
    return { writer: `DuckDB, ${codec}${rowGroupSize === rows ? ', one row group' : ''}`,
             how: `COPY ... (FORMAT parquet, ${copy})`, sql: generatorSql(rows), copy,
             rowGroups: rowGroupSize >= rows ? 1 : null };
  };
  return {
    duckdb_zstd: spec('zstd', 1_000_000),
    duckdb_zstd_1rg: spec('zstd', rows),
    duckdb_snappy: spec('snappy', 1_000_000),
    duckdb_snappy_1rg: spec('snappy', rows),
  };
}

// Each group: its folder prefix, its scheme name (hashed with its specs) and its files.
const GROUPS = [
  { prefix: 'suite', scheme: 'suite-v1', specs: coreSpecs },
  { prefix: 'suite-duckdb', scheme: 'suite-duckdb-v1', specs: duckdbCodecSpecs },
];

// Every file of the suite, in report order.
export const FILE_NAMES = GROUPS.flatMap((g) => Object.keys(g.specs(FULL_ROWS)));

function groupDir(dataDir, rows, group) {
  const version = createHash('sha256').update(JSON.stringify([group.scheme, group.specs(rows)])).digest('hex').slice(0, 10);
  return path.join(dataDir, `${group.prefix}-${rows}-${version}`);
}

// The folder of the first group (DuckDB defaults, Polars, pqsift), as before the groups.
export function datasetDir(dataDir, rows) {
  return groupDir(dataDir, rows, GROUPS[0]);
}

// Writes what is missing of the files named in `names` (default: all) and of the files they are
// converted from; returns { files: {name: {path, writer, how, bytes, seconds}}, dirs } in
// FILE_NAMES order. `seconds` is the time spent writing it in this call (0 when cached).
export async function ensureDatasets({ dataDir, rows, pqsift, threads, log, names = FILE_NAMES }) {
  const needed = new Set();
  const need = (name) => {
    const spec = GROUPS.map((g) => g.specs(rows)[name]).find(Boolean);
    if (!spec) throw new Error(`no dataset ${name}`);
    if (spec.from) need(spec.from);
    needed.add(name);
  };
  names.forEach(need);
  const files = {};
  const dirs = [];
  for (const group of GROUPS) {
    const specs = group.specs(rows);
    if (!Object.keys(specs).some((n) => needed.has(n))) continue;
    const dir = groupDir(dataDir, rows, group);
    dirs.push(dir);
    fs.mkdirSync(dir, { recursive: true });
    for (const stale of fs.readdirSync(dataDir)) {
      if (stale.startsWith(`${group.prefix}-${rows}-`) && path.join(dataDir, stale) !== dir) {
        log(`removing stale dataset ${stale} (generator changed)`);
        fs.rmSync(path.join(dataDir, stale), { recursive: true, force: true });
      }
    }
    for (const [name, spec] of Object.entries(specs)) {
      if (!needed.has(name)) continue;
      const file = path.join(dir, `${name}.parquet`);
      const tmp = `${file}.tmp`;
      const t0 = Date.now();
      if (!fs.existsSync(file)) {
        log(`writing ${path.relative(process.cwd(), file)} (${spec.how}) ...`);
        fs.rmSync(tmp, { force: true });
        if (spec.sql) await writeWithDuckDB(spec.sql, tmp, threads, spec.copy, spec.rowGroups);
        else if (name === 'polars') writeWithPolars(files[spec.from].path, tmp, threads);
        else convertWithPqsift(pqsift, files[spec.from].path, tmp, [...spec.convert, '--threads', String(threads)]);
        fs.renameSync(tmp, file);
      }
      files[name] = { path: file, writer: spec.writer, how: spec.how, bytes: fs.statSync(file).size, seconds: (Date.now() - t0) / 1e3 };
    }
  }
  const ordered = Object.fromEntries(FILE_NAMES.filter((n) => files[n]).map((n) => [n, files[n]]));
  return { dir: dirs[0], dirs, files: ordered };
}

// `copy`: more COPY options after FORMAT parquet (none: DuckDB's defaults); `rowGroups`: the
// row groups the file must have, checked with parquet_metadata (null: not checked).
async function writeWithDuckDB(select, out, threads, copy = null, rowGroups = null) {
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const con = await instance.connect();
  await con.run(`COPY (${select}) TO ${sql(out)} (FORMAT parquet${copy ? `, ${copy}` : ''})`);
  if (rowGroups != null) {
    const r = await con.runAndReadAll(`SELECT count(DISTINCT row_group_id)::INTEGER AS n FROM parquet_metadata(${sql(out)})`);
    const n = Number(r.getRowObjectsJson()[0].n);
    if (n !== rowGroups) throw new Error(`DuckDB wrote ${n} row groups to ${out}, expected ${rowGroups}`);
  }
  con.closeSync?.();
}

// In a child process, so that Polars' memory (the whole table) is returned when it is done.
function writeWithPolars(source, out, threads) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'polars-write', source, out],
                      { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, POLARS_MAX_THREADS: String(threads) } });
  if (r.status !== 0) throw new Error(`Polars could not write ${out}`);
}

function convertWithPqsift(pqsift, source, out, extra) {
  const r = spawnSync(pqsift, ['convert', source, out, ...extra], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pqsift convert ${source} ${out} ${extra.join(' ')} failed: ${r.stderr}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'polars-write') {
  const pl = await loadPolars();
  pl.readParquet(process.argv[3]).writeParquet(process.argv[4]);
}

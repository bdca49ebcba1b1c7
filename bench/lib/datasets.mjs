// The benchmark suite's datasets (bench/suite.mjs), written once and cached in
// bench/data/suite-<rows>-<version>/, where <version> is a hash of everything that shapes the
// files (the generating SQL, the writers' options, this scheme's name): changing any of it
// writes a new folder and deletes the stale ones for the same row count. Each file is written
// to NAME.tmp and renamed when complete, so an existing file is a complete one.
//
// The same rows four times: written by DuckDB (its defaults), by Polars (`writeParquet`, its
// defaults, from DuckDB's file), by `pqsift convert` (its defaults: page index, row groups of
// 1,000,000 rows; plus a bloom filter on `key`), and by `pqsift convert` as a single row group.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadDuckDB, loadPolars, sql } from './common.mjs';

const SCHEME = 'suite-v1';
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

// name -> how it is written. `from` names the file it is converted from.
function fileSpecs(rows) {
  return {
    duckdb: { writer: 'DuckDB', how: 'COPY ... (FORMAT parquet) (DuckDB defaults)', sql: generatorSql(rows) },
    polars: { writer: 'Polars', how: 'writeParquet(FILE) (nodejs-polars defaults) of readParquet(duckdb file)', from: 'duckdb' },
    pqsift: { writer: 'pqsift', how: 'pqsift convert --bloom-filter key (defaults: page index, row groups of 1,000,000 rows)',
              from: 'duckdb', convert: ['--bloom-filter', 'key'] },
    pqsift_1rg: { writer: 'pqsift, one row group', how: `pqsift convert --bloom-filter key --row-group-rows ${rows}`,
                  from: 'duckdb', convert: ['--bloom-filter', 'key', '--row-group-rows', String(rows)] },
  };
}

export function datasetDir(dataDir, rows) {
  const version = createHash('sha256').update(JSON.stringify([SCHEME, fileSpecs(rows)])).digest('hex').slice(0, 10);
  return path.join(dataDir, `suite-${rows}-${version}`);
}

// Writes what is missing; returns { files: {name: {path, writer, how, bytes, seconds}}, dir }.
// `seconds` is the time spent writing it in this call (0 when cached).
export async function ensureDatasets({ dataDir, rows, pqsift, threads, log }) {
  const dir = datasetDir(dataDir, rows);
  fs.mkdirSync(dir, { recursive: true });
  for (const stale of fs.readdirSync(dataDir)) {
    if (stale.startsWith(`suite-${rows}-`) && path.join(dataDir, stale) !== dir) {
      log(`removing stale dataset ${stale} (generator changed)`);
      fs.rmSync(path.join(dataDir, stale), { recursive: true, force: true });
    }
  }
  const specs = fileSpecs(rows);
  const files = {};
  for (const [name, spec] of Object.entries(specs)) {
    const file = path.join(dir, `${name}.parquet`);
    const tmp = `${file}.tmp`;
    const t0 = Date.now();
    if (!fs.existsSync(file)) {
      log(`writing ${path.relative(process.cwd(), file)} (${spec.how}) ...`);
      fs.rmSync(tmp, { force: true });
      if (name === 'duckdb') await writeWithDuckDB(spec.sql, tmp, threads);
      else if (name === 'polars') writeWithPolars(files[spec.from].path, tmp, threads);
      else convertWithPqsift(pqsift, files[spec.from].path, tmp, [...spec.convert, '--threads', String(threads)]);
      fs.renameSync(tmp, file);
    }
    files[name] = { path: file, writer: spec.writer, how: spec.how, bytes: fs.statSync(file).size, seconds: (Date.now() - t0) / 1e3 };
  }
  return { dir, files };
}

async function writeWithDuckDB(select, out, threads) {
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const con = await instance.connect();
  await con.run(`COPY (${select}) TO ${sql(out)} (FORMAT parquet)`);
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

#!/usr/bin/env node
// Files pqsift writes, read by other engines: `pqsift convert` turns a DuckDB-written file of
// every flat type (and the same data as CSV) into Parquet under several option sets (codecs,
// dictionary off, per-column encodings (delta, byte stream split, RLE booleans), small pages and row groups sorted by two keys, data pages v2, short statistics truncation); then, in this one
// Node process:
//   - DuckDB reads every output with the same column types and the same rows as the source
//     (EXCEPT ALL both ways, so duplicates and NULLs count);
//   - DuckDB's parquet_metadata() shows the statistics pqsift wrote: for every column chunk a
//     null count equal to the chunk's NULLs, and min/max (exact, unless truncated) equal to the
//     chunk's extremes for integer and string columns;
//   - hyparquet's footer parser sees a column index and an offset index on every chunk;
//   - Polars reads the default output with the same row count and NULLs per column;
//   - nested columns (structs, lists, maps, at several depths) rewritten by convert read back
//     equal by DuckDB, pqsift, parquet-wasm and Polars;
//   - a JSON Lines file converted by pqsift equals DuckDB's read_json of it (types and rows);
//   - a hive-partitioned dataset (convert --partition-by) read by DuckDB's hive partitioning
//     holds the source's rows (escaped folder names; '' and NULL the default partition).
//
//   node tests/interop/writer_vs_duckdb.mjs --pqsift PATH --workdir DIR
//
// Prints one PASS/FAIL line per check, then exactly
//   writer_vs_duckdb: N passed, M failed
// and exits 1 when M > 0 or N == 0.

import fs from 'node:fs';
import path from 'node:path';
import { CommandPool } from '../lib/command_pool.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const peers = path.join(repo, 'tools/peers');
const NAME = 'writer_vs_duckdb';

let passed = 0;
let failed = 0;
function check(ok, what, detail = '') {
  if (ok) passed++;
  else failed++;
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'} ${what}${!ok && detail ? `: ${detail}` : ''}\n`);
  return ok;
}
function finish() {
  process.stdout.write(`${NAME}: ${passed} passed, ${failed} failed\n`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

const args = { pqsift: null, workdir: null };
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--pqsift') args.pqsift = process.argv[++i];
  else if (process.argv[i] === '--workdir') args.workdir = process.argv[++i];
  else { process.stderr.write(`${NAME}: unknown argument ${process.argv[i]}\n`); process.exit(2); }
}
if (!args.pqsift || !args.workdir) {
  process.stderr.write(`usage: node tests/interop/${NAME}.mjs --pqsift PATH --workdir DIR\n`);
  process.exit(2);
}
if (!fs.existsSync(path.join(peers, 'node_modules'))) {
  check(false, 'tools/peers/node_modules present', 'run scripts/setup (npm ci in tools/peers)');
  finish();
}

const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js')));
const { parquetMetadata } = await import(pathToFileURL(path.join(peers, 'node_modules/hyparquet/src/metadata.js')));
const pl = (await import(pathToFileURL(path.join(peers, 'node_modules/nodejs-polars/bin/index.js')))).default;
const pw = await import(pathToFileURL(path.join(peers, 'node_modules/parquet-wasm/node/parquet_wasm.js')));

// Through a pool of small workers: spawning from this process, which holds DuckDB, is slow.
const pool = new CommandPool(2);
const run = (argv) => pool.run([args.pqsift, ...argv], 60000).then((r) => ({ ...r, stderr: r.stderr.trim() }));

const work = path.resolve(args.workdir);
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const db = await instance.connect();
await db.run(`SET TimeZone = 'UTC'`);
const rows = async (sql) => (await db.runAndReadAll(sql)).getRowObjects();
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;

// The source: every flat type, NULLs in every column (a different pattern each), an all-NULL
// column, NaN and signed zeros, strings longer than the 64-byte statistics limit, sorted and
// random columns (so page bounds are ordered for some and not for others).
const N = 30000;
await db.run(`CREATE TABLE src AS SELECT
  CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
  CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 256 - 128)::TINYINT END AS i8,
  CASE WHEN i % 13 = 0 THEN NULL ELSE ((hash(i) % 65536)::INTEGER - 32768)::SMALLINT END AS i16,
  CASE WHEN i % 17 = 0 THEN NULL ELSE i - 15000 END::INTEGER AS i32,
  CASE WHEN i % 19 = 0 THEN NULL ELSE (hash(i) % 4611686018427387904)::BIGINT * 2 - 4611686018427387904 END AS i64,
  CASE WHEN i % 23 = 0 THEN NULL ELSE (i % 256)::UTINYINT END AS u8,
  CASE WHEN i % 29 = 0 THEN NULL ELSE (hash(i) % 65536)::USMALLINT END AS u16,
  CASE WHEN i % 31 = 0 THEN NULL ELSE (hash(i) % 4294967296)::UINTEGER END AS u32,
  CASE WHEN i % 37 = 0 THEN NULL ELSE hash(i)::UBIGINT END AS u64,
  CASE WHEN i % 41 = 0 THEN NULL WHEN i % 43 = 0 THEN 'NaN'::FLOAT WHEN i % 47 = 0 THEN -0.0::FLOAT ELSE (i % 1000) / 7.0 END::FLOAT AS f32,
  CASE WHEN i % 53 = 0 THEN NULL WHEN i % 59 = 0 THEN 'NaN'::DOUBLE WHEN i % 61 = 0 THEN 'inf'::DOUBLE ELSE (hash(i) % 100000) / 13.0 - 3000 END AS f64,
  CASE WHEN i % 67 = 0 THEN NULL ELSE 'k' || (i % 500)::VARCHAR END AS s_dict,
  CASE WHEN i % 71 = 0 THEN NULL ELSE md5(i::VARCHAR) || repeat('é', i % 40) END AS s_long,
  CASE WHEN i % 73 = 0 THEN NULL ELSE ('\\x' || lpad(to_hex(hash(i) % 65536), 4, '0') || 'ff')::BLOB END AS bin,
  CASE WHEN i % 79 = 0 THEN NULL ELSE ((i - 15000) * 3.01)::DECIMAL(9,2) END AS d9,
  CASE WHEN i % 83 = 0 THEN NULL ELSE ((hash(i) % 1000000000000)::DECIMAL(18,3) / 7)::DECIMAL(18,3) END AS d18,
  CASE WHEN i % 89 = 0 THEN NULL ELSE ((hash(i)::HUGEINT * 1000000000000000) / 7 - 1e33)::DECIMAL(38,4) END AS d38,
  CASE WHEN i % 97 = 0 THEN NULL ELSE DATE '2020-01-01' + (i % 2000)::INTEGER END AS day,
  CASE WHEN i % 101 = 0 THEN NULL ELSE TIME '00:00:00' + to_microseconds((hash(i) % 86400000000)::BIGINT) END AS t,
  CASE WHEN i % 103 = 0 THEN NULL ELSE TIMESTAMP '2024-01-01' + to_seconds(i * 37) END AS ts,
  CASE WHEN i % 107 = 0 THEN NULL ELSE (TIMESTAMP '2024-01-01' + to_milliseconds(i * 1234567))::TIMESTAMP_MS END AS ts_ms,
  CASE WHEN i % 109 = 0 THEN NULL ELSE (TIMESTAMP '2024-01-01' + to_microseconds((hash(i) % 1000000000000)::BIGINT))::TIMESTAMP_NS END AS ts_ns,
  CASE WHEN i % 113 = 0 THEN NULL ELSE TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i * 61) END AS tstz,
  NULL::INTEGER AS all_null
FROM range(${N}) t(i)`);
const source = path.join(work, 'source.parquet');
await db.run(`COPY src TO ${q(source)} (FORMAT parquet)`);
// The CSV subset: the types CSV inference finds (int64, double, bool, date, timestamp, string).
const csvColumns = ['b', 'i64', 'f64', 's_dict', 's_long', 'day', 'ts', 'tstz'];
const csvSource = path.join(work, 'source.csv');
await db.run(`COPY (SELECT ${csvColumns.join(', ')} FROM src) TO ${q(csvSource)} (FORMAT csv, HEADER)`);

const variants = [
  { name: 'default', argv: [] },
  { name: 'zstd_nodict_small_pages_encodings', argv: ['--compression', 'zstd:7', '--dictionary', 'off', '--page-rows', '997',
    '--encoding', 'i32:delta,u64:delta,b:rle,s_long:delta_length_byte_array,s_dict:delta,f64:byte_stream_split,d38:delta_byte_array,bin:delta_byte_array'] },
  { name: 'gzip_row_groups_sorted', argv: ['--compression', 'gzip', '--row-group-rows', '7000', '--page-rows', '3000', '--sort-by', 's_dict,i16:desc'] },
  { name: 'lz4_raw_page_bytes_v2', argv: ['--compression', 'lz4_raw', '--page-bytes', '20000', '--data-page-v2'] },
  { name: 'brotli_truncate8', argv: ['--compression', 'brotli', '--stats-truncate', '8'] },
  { name: 'none_no_page_index', argv: ['--compression', 'none', '--no-page-index'] },
];
const outputs = [];
for (const v of variants) {
  const out = path.join(work, `${v.name}.parquet`);
  const r = await run(['convert', source, out, ...v.argv]);
  if (check(r.status === 0, `convert ${v.name}`, `exit ${r.status} ${r.signal ?? ''} ${r.stderr}`)) {
    outputs.push({ ...v, file: out, sourceSql: `read_parquet(${q(source)})`, columns: null });
  }
}
{
  const out = path.join(work, 'from_csv.parquet');
  // DuckDB writes TIMESTAMPTZ to CSV with an offset: inferred as timestamp[us, UTC].
  const r = await run(['convert', csvSource, out]);
  if (check(r.status === 0, 'convert csv', `exit ${r.status} ${r.signal ?? ''} ${r.stderr}`)) {
    outputs.push({ name: 'from_csv', file: out, sourceSql: `(SELECT ${csvColumns.join(', ')} FROM read_parquet(${q(source)}))`, columns: csvColumns });
  }
}

const typesOf = async (sql) => (await rows(`DESCRIBE SELECT * FROM ${sql}`)).map((r) => `${r.column_name}:${r.column_type}`);
const statsColumns = new Set(['i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 's_dict', 's_long', 'day']);
for (const o of outputs) {
  const out = `read_parquet(${q(o.file)})`;
  // Types and values.
  const [want, got] = [await typesOf(o.sourceSql), await typesOf(out)];
  check(JSON.stringify(want) === JSON.stringify(got), `${o.name}: DuckDB reads the same column types`,
        `source ${want.filter((t) => !got.includes(t)).join(' ')} vs written ${got.filter((t) => !want.includes(t)).join(' ')}`);
  const count = (await rows(`SELECT count(*)::INTEGER AS n FROM ${out}`))[0].n;
  const missing = (await rows(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM ${o.sourceSql} EXCEPT ALL SELECT * FROM ${out})`))[0].n;
  const extra = (await rows(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM ${out} EXCEPT ALL SELECT * FROM ${o.sourceSql})`))[0].n;
  check(count === N && missing === 0 && extra === 0, `${o.name}: DuckDB reads the same ${N} rows`,
        `${count} rows, ${missing} source rows missing, ${extra} rows not in the source`);

  // Statistics, per column chunk, against the chunk's own rows (row groups are consecutive).
  const meta = await rows(`SELECT row_group_id::INTEGER AS rg, row_group_num_rows::INTEGER AS rg_rows, path_in_schema AS col,
      stats_null_count::INTEGER AS nulls, stats_min_value AS min, stats_max_value AS max, min_is_exact, max_is_exact
    FROM parquet_metadata(${q(o.file)}) ORDER BY row_group_id, column_id`);
  const rgStart = new Map();
  let start = 0;
  for (const m of meta) if (!rgStart.has(m.rg)) { rgStart.set(m.rg, start); start += m.rg_rows; }
  const problems = [];
  for (const m of meta) {
    const from = rgStart.get(m.rg);
    // Float bounds leave NaN out (DuckDB sorts NaN above every number).
    const notNaN = m.col === 'f32' || m.col === 'f64' ? ` FILTER (WHERE NOT isnan("${m.col}"))` : '';
    const truth = (await rows(`SELECT (count(*) - count("${m.col}"))::INTEGER AS nulls, count("${m.col}")::INTEGER AS n,
        (min("${m.col}")${notNaN})::VARCHAR AS min, (max("${m.col}")${notNaN})::VARCHAR AS max
      FROM (SELECT "${m.col}" FROM ${out} LIMIT ${m.rg_rows} OFFSET ${from})`))[0];
    if (m.nulls !== truth.nulls) problems.push(`${m.col}@${m.rg} null_count ${m.nulls} != ${truth.nulls}`);
    if (m.col === 'all_null' || truth.n === 0) {
      if (m.min !== null || m.max !== null) problems.push(`${m.col}@${m.rg} has bounds without values`);
      continue;
    }
    // DuckDB does not show infinite float bounds (it drops them when reading), so f64's max is
    // null there although the file holds +inf (pqsift inspect shows it).
    const infinite = (x) => x === 'inf' || x === '-inf';
    if ((m.min === null && !infinite(truth.min)) || (m.max === null && !infinite(truth.max))) {
      problems.push(`${m.col}@${m.rg} has no min/max`);
    }
    if (!statsColumns.has(m.col)) continue;
    if (m.min_is_exact && m.min !== truth.min) problems.push(`${m.col}@${m.rg} exact min ${m.min} != ${truth.min}`);
    if (m.max_is_exact && m.max !== truth.max) problems.push(`${m.col}@${m.rg} exact max ${m.max} != ${truth.max}`);
    if (m.col.startsWith('s_') || m.col === 'bin') {
      const long = m.col === 's_long' || o.name === 'brotli_truncate8';
      if (!long && !(m.min_is_exact && m.max_is_exact)) problems.push(`${m.col}@${m.rg} short strings not exact`);
    } else if (!(m.min_is_exact && m.max_is_exact)) {
      problems.push(`${m.col}@${m.rg} not exact`);
    }
  }
  check(problems.length === 0, `${o.name}: parquet_metadata() shows the statistics (${meta.length} chunks)`, problems.slice(0, 8).join('; '));

  // The page index, as another parser sees the footer.
  const buffer = fs.readFileSync(o.file);
  const footer = parquetMetadata(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
  const chunks = footer.row_groups.flatMap((g) => g.columns);
  const indexed = chunks.filter((c) => c.column_index_offset !== undefined && c.offset_index_offset !== undefined).length;
  const wantIndexed = o.name === 'none_no_page_index' ? 0 : chunks.length;
  check(indexed === wantIndexed, `${o.name}: hyparquet sees a page index on ${wantIndexed} of ${chunks.length} chunks`, `${indexed} have one`);
}

// --sort-by: within each row group of 7000 rows, s_dict ascending then i16 descending, nulls
// last, as DuckDB sees the rows in file order.
{
  const o = outputs.find((x) => x.name === 'gzip_row_groups_sorted');
  if (o) {
    const bad = (await rows(`SELECT count(*)::INTEGER AS n FROM (
        SELECT s_dict, i16, file_row_number // 7000 AS g,
               lag(s_dict) OVER w AS ps, lag(i16) OVER w AS pi, lag(file_row_number // 7000) OVER w AS pg
        FROM read_parquet(${q(o.file)}, file_row_number = true) WINDOW w AS (ORDER BY file_row_number))
      WHERE g = pg AND (ps > s_dict OR (ps IS NULL AND s_dict IS NOT NULL) OR
        (ps IS NOT DISTINCT FROM s_dict AND (pi < i16 OR (pi IS NULL AND i16 IS NOT NULL))))`))[0].n;
    check(bad === 0, 'gzip_row_groups_sorted: every row group is sorted by s_dict, i16 desc', `${bad} rows out of order`);
  }
}

// Polars reads the default output: rows and NULLs per column.
{
  const o = outputs.find((x) => x.name === 'default');
  try {
    const df = pl.readParquet(o.file);
    const truth = (await rows(`SELECT ${(await typesOf(`read_parquet(${q(o.file)})`)).map((t) => `(count(*) - count("${t.split(':')[0]}"))::INTEGER AS "${t.split(':')[0]}"`).join(', ')} FROM read_parquet(${q(o.file)})`))[0];
    const bad = df.columns.filter((c) => df.getColumn(c).nullCount() !== truth[c]);
    check(df.height === N && bad.length === 0, 'polars reads the default output', `${df.height} rows; NULL counts differ in ${bad.join(', ')}`);
  } catch (e) {
    check(false, 'polars reads the default output', String(e).slice(0, 300));
  }
}

// Nested columns: structs (in structs), lists (of lists, of structs, inside structs) and maps,
// NULL and empty at every level, written by DuckDB, rewritten by pqsift convert (default, pages
// of 7 rows v2 without dictionary, so pages cut the lists, and DELTA / BYTE_STREAM_SPLIT
// encodings on nested leaves with small pages), then read back by DuckDB
// (types and rows), pqsift (the JSON Lines scan output, byte for byte), parquet-wasm (arrow-rs)
// and Polars (each against its own reading of the source file).
{
  const NN = 3000;
  const nestedSource = path.join(work, 'nested_source.parquet');
  await db.run(`COPY (SELECT i::INTEGER AS id,
    CASE WHEN i % 17 = 0 THEN NULL ELSE {'a': CASE WHEN i % 7 = 0 THEN NULL ELSE i END, 'b': 's' || i,
      'c': {'d': i / 4.0, 'e': CASE WHEN i % 11 = 0 THEN NULL ELSE [i, NULL, -i] END}} END AS st,
    CASE WHEN i % 13 = 0 THEN NULL WHEN i % 13 = 1 THEN []::INTEGER[] ELSE [i::INTEGER, NULL, (i * 3)::INTEGER] END AS li,
    CASE WHEN i % 19 = 0 THEN NULL ELSE [['x' || i, NULL], [], NULL, ['y' || (i % 100)]] END AS lli,
    CASE WHEN i % 23 = 0 THEN NULL ELSE MAP {'k' || (i % 50): i::BIGINT, 'z' || i: NULL::BIGINT} END AS mp,
    CASE WHEN i % 29 = 0 THEN NULL ELSE [{'x': (i % 10 - 5)::SMALLINT, 'y': 'q' || i}, NULL, {'x': NULL, 'y': NULL}] END AS los,
    CASE WHEN i % 5 = 0 THEN [] ELSE range(i % 40)::BIGINT[] END AS long_list,
    CASE WHEN i % 9 = 0 THEN NULL ELSE [MAP {i: [DATE '2000-01-01' + i::INTEGER, NULL]}, NULL] END AS deep
    FROM range(${NN}) t(i)) TO ${q(nestedSource)} (FORMAT parquet)`);
  const arrowOf = (file) => pl.readIPCStream(Buffer.from(pw.readParquet(new Uint8Array(fs.readFileSync(file))).intoIPCStream()));
  // Polars reads a NULL map of DuckDB's files as an empty list (but pqsift's as NULL, as DuckDB
  // and pqsift do): maps compare with NULL and [] taken as equal.
  const polarsRecords = (file) => JSON.stringify(pl.readParquet(file).toRecords().map((r) => ({ ...r, mp: r.mp ?? [], deep: r.deep?.map((m) => m ?? []) ?? null })),
    (k, v) => (typeof v === 'bigint' ? String(v) : v));
  const sourceScan = await run(['scan', nestedSource, '--format', 'jsonl']);
  for (const v of [{ name: 'nested_default', argv: [] },
    { name: 'nested_pages7_v2_nodict', argv: ['--page-rows', '7', '--data-page-v2', '--dictionary', 'off', '--compression', 'zstd'] },
    { name: 'nested_leaf_encodings_gzip', argv: ['--compression', 'gzip', '--page-bytes', '3000', '--encoding',
      'li.list.element:delta,lli.list.element.list.element:delta_byte_array,mp.key_value.key:delta_length_byte_array,long_list.list.element:delta,st.c.d:byte_stream_split'] }]) {
    const out = path.join(work, `${v.name}.parquet`);
    const r = await run(['convert', nestedSource, out, ...v.argv]);
    if (!check(r.status === 0, `convert ${v.name}`, `exit ${r.status} ${r.signal ?? ''} ${r.stderr}`)) continue;
    const [want, got] = [await typesOf(`read_parquet(${q(nestedSource)})`), await typesOf(`read_parquet(${q(out)})`)];
    check(JSON.stringify(want) === JSON.stringify(got), `${v.name}: DuckDB reads the same nested column types`, `${want} vs ${got}`);
    const missing = (await rows(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM read_parquet(${q(nestedSource)}) EXCEPT ALL SELECT * FROM read_parquet(${q(out)}))`))[0].n;
    const extra = (await rows(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM read_parquet(${q(out)}) EXCEPT ALL SELECT * FROM read_parquet(${q(nestedSource)}))`))[0].n;
    const count = (await rows(`SELECT count(*)::INTEGER AS n FROM read_parquet(${q(out)})`))[0].n;
    check(count === NN && missing === 0 && extra === 0, `${v.name}: DuckDB reads the same ${NN} nested rows`, `${count} rows, ${missing} missing, ${extra} extra`);
    const scan = await run(['scan', out, '--format', 'jsonl']);
    check(scan.status === 0 && sourceScan.status === 0 && scan.stdout === sourceScan.stdout && scan.stdout.length > 0,
          `${v.name}: pqsift scans the same rows as from the source`, `${scan.stderr} ${sourceScan.stderr}`);
    try {
      check(arrowOf(out).frameEqual(arrowOf(nestedSource), true), `${v.name}: parquet-wasm reads the same values as from the source`);
    } catch (e) {
      check(false, `${v.name}: parquet-wasm reads the output`, String(e).slice(0, 300));
    }
    try {
      check(polarsRecords(out) === polarsRecords(nestedSource), `${v.name}: Polars reads the same values as from the source`);
    } catch (e) {
      check(false, `${v.name}: Polars reads the output`, String(e).slice(0, 300));
    }
  }
}
// JSON Lines: DuckDB writes objects of every JSON kind (numbers, booleans, strings that are
// dates and timestamps or plain text, nested objects and arrays, nulls), a few hand-written
// lines leave keys out; pqsift convert's output must equal DuckDB's own read_json of the file
// (the same column types and rows).
{
  const jsonl = path.join(work, 'source.jsonl');
  await db.run(`COPY (SELECT i AS id, (i % 1000) / 8.0 AS price, i % 3 = 0 AS flag,
      CASE WHEN i % 7 = 0 THEN NULL ELSE 'n' || (i % 97) END AS name,
      DATE '2020-01-01' + (i % 900)::INTEGER AS day,
      TIMESTAMP '2024-01-01' + to_seconds(i * 37) AS ts,
      CASE WHEN i % 11 = 0 THEN NULL ELSE {'a': i % 5, 'b': 'x' || i, 'c': [i, i + 1]} END AS obj,
      CASE WHEN i % 13 = 0 THEN NULL ELSE [{'k': 'q' || (i % 4), 'v': i / 2.0}] END AS pairs,
      CASE WHEN i % 2 = 0 THEN [] ELSE ['s' || i, NULL] END AS tags
    FROM range(5000) t(i)) TO ${q(jsonl)} (FORMAT json)`);
  fs.appendFileSync(jsonl, '{"id": 5000, "price": 1.25}\n{"id": 5001, "obj": {"b": "only"}, "tags": ["t"]}\n');
  const out = path.join(work, 'from_jsonl.parquet');
  const r = await run(['convert', jsonl, out, '--page-rows', '1000']);
  if (check(r.status === 0, 'convert jsonl', `exit ${r.status} ${r.signal ?? ''} ${r.stderr}`)) {
    const source = `read_json(${q(jsonl)})`;
    const [want, got] = [await typesOf(source), await typesOf(`read_parquet(${q(out)})`)];
    check(JSON.stringify(want) === JSON.stringify(got), 'from_jsonl: the column types of DuckDB\'s read_json', `${want} vs ${got}`);
    const missing = (await rows(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM ${source} EXCEPT ALL SELECT * FROM read_parquet(${q(out)}))`))[0].n;
    const extra = (await rows(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM read_parquet(${q(out)}) EXCEPT ALL SELECT * FROM ${source})`))[0].n;
    const count = (await rows(`SELECT count(*)::INTEGER AS n FROM read_parquet(${q(out)})`))[0].n;
    check(count === 5002 && missing === 0 && extra === 0, 'from_jsonl: the rows of DuckDB\'s read_json', `${count} rows, ${missing} missing, ${extra} extra`);
  }
}
// A hive-partitioned dataset (convert --partition-by) read by DuckDB's hive partitioning: the
// same rows, folder names escaped as DuckDB decodes them, '' and NULL the default partition.
{
  const src = path.join(work, 'partition_source.parquet');
  await db.run(`COPY (SELECT i AS id,
      CASE i % 7 WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 'a/b=c' WHEN 3 THEN '50%: x y'
                 WHEN 4 THEN 'é#?[]' WHEN 5 THEN 'it''s' ELSE 'plain' END AS s,
      DATE '2024-01-01' + (i % 3)::INTEGER AS day, (i % 5 - 2)::INTEGER AS n, i * 3 AS v
    FROM range(3000) t(i)) TO ${q(src)} (FORMAT parquet)`);
  const out = path.join(work, 'partitioned');
  fs.rmSync(out, { recursive: true, force: true });
  const r = await run(['convert', src, out, '--partition-by', 's,day,n', '--row-group-rows', '100']);
  if (check(r.status === 0, 'convert --partition-by', `exit ${r.status} ${r.signal ?? ''} ${r.stderr}`)) {
    const mine = `(SELECT id, s, day, n::INTEGER AS n, v FROM read_parquet(${q(out + '/**/*.parquet')}, hive_partitioning = true))`;
    const theirs = `(SELECT id, NULLIF(s, '') AS s, day, n, v FROM read_parquet(${q(src)}))`;
    const missing = (await rows(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM ${theirs} EXCEPT ALL SELECT * FROM ${mine})`))[0].n;
    const extra = (await rows(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM ${mine} EXCEPT ALL SELECT * FROM ${theirs})`))[0].n;
    const count = (await rows(`SELECT count(*)::INTEGER AS n FROM ${mine}`))[0].n;
    check(count === 3000 && missing === 0 && extra === 0, 'partitioned: DuckDB reads the hive folders as the source\'s rows',
          `${count} rows, ${missing} missing, ${extra} extra`);
  }
}
finish();

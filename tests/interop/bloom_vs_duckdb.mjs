#!/usr/bin/env node
// Bloom filters across engines, both ways, in one Node process:
//   (a) pqsift writes them: `pqsift convert --bloom-filter` on columns of many physical and
//       logical types; DuckDB's parquet_bloom_probe() must not exclude any row group holding a
//       probed value (a false negative would make DuckDB lose rows), and excludes most row
//       groups for absent values (the filters are really there and hashed alike);
//   (b) DuckDB writes them (it adds one to every dictionary-encoded column); pqsift's bloom
//       stage must skip exactly the row groups parquet_bloom_probe() excludes (same hash, same
//       bit layout), and `pqsift count` must equal DuckDB's count for every probe.
// Every row group spans the whole value range, so min/max statistics prove nothing and the
// bloom filter alone decides.
//
//   node tests/interop/bloom_vs_duckdb.mjs --pqsift PATH --workdir DIR
//
// Prints one PASS/FAIL line per check, then exactly
//   bloom_vs_duckdb: N passed, M failed
// and exits 1 when M > 0 or N == 0.

import fs from 'node:fs';
import path from 'node:path';
import { CommandPool } from '../lib/command_pool.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const peers = path.join(repo, 'tools/peers');
const NAME = 'bloom_vs_duckdb';

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

// 4 row groups of 5000 rows. Row i holds k = (i * 7919) % 1000, so every row group holds every
// k in 0..999 (and with it the extremes); each column stores an even function of k, so odd
// arguments are absent but inside [min, max]. A column, its DuckDB type, and the SQL and
// pqsift literal of its value for an integer x; `probe`: the value as parquet_bloom_probe()
// must be given it, when not the SQL literal. DuckDB 1.x's probe hashes a DECIMAL literal
// otherwise than its writer hashes an INT64-backed decimal (it reports its own present values
// as excluded), so the unscaled BIGINT, what both writers store and hash (BloomFilter.md: the
// PLAIN form), is probed; it excludes nothing for FIXED_LEN_BYTE_ARRAY decimals
// (`excludes: false`).
const ROWS = 20000;
const GROUP = 5000;
const columns = [
  { name: 'i32', sql: (x) => `${x}::INTEGER`, lit: (x) => `${x}`, expr: 'k * 2 - 1000' },
  { name: 'i64', sql: (x) => `${x}::BIGINT`, lit: (x) => `${x}`, expr: '(k * 2 - 1000)::BIGINT * 1000000007' },
  { name: 's', sql: (x) => q(`key-${String(x).padStart(5, '0')}`), lit: (x) => q(`key-${String(x).padStart(5, '0')}`),
    expr: `'key-' || lpad((k * 2)::VARCHAR, 5, '0')` },
  { name: 'f64', sql: (x) => `${x}.25::DOUBLE`, lit: (x) => `${x}.25`, expr: '(k * 2)::DOUBLE + 0.25' },
  { name: 'f32', sql: (x) => `${x}.5::FLOAT`, lit: (x) => `${x}.5`, expr: '((k * 2)::DOUBLE + 0.5)::FLOAT' },
  { name: 'day', sql: (x) => `DATE '2020-01-01' + ${x}`, lit: (x) => q(new Date(Date.UTC(2020, 0, 1 + x)).toISOString().slice(0, 10)),
    expr: `DATE '2020-01-01' + (k * 2)::INTEGER` },
  { name: 'ts', sql: (x) => `TIMESTAMP '2024-01-01' + INTERVAL (${x}) SECOND`, lit: (x) => q(new Date(Date.UTC(2024, 0, 1) + x * 1000).toISOString().replace('T', ' ').slice(0, 19)),
    expr: `TIMESTAMP '2024-01-01' + to_seconds(k * 2)` },
  { name: 'd18', sql: (x) => `${x}.05::DECIMAL(18,2)`, lit: (x) => `${x}.05`, probe: (x) => `${x * 100 + 5}::BIGINT`,
    expr: '((k * 2)::DECIMAL(18,2) + 0.05)::DECIMAL(18,2)' },
  { name: 'd30', sql: (x) => `${x}.5::DECIMAL(30,3)`, lit: (x) => `${x}.5`, excludes: false,
    expr: '((k * 2)::DECIMAL(30,3) + 0.5)::DECIMAL(30,3)' },
  { name: 'u32', sql: (x) => `${x + 3000000000}::UINTEGER`, lit: (x) => `${x + 3000000000}`, expr: '(k * 2 + 3000000000)::UINTEGER' },
];
// x values of present (even) and absent (odd) probes, and their k (column i32 is 2k - 1000).
const presentX = [0, 998, 1998];
const absentX = [1, 999, 1997];
const probeOf = (c, x) => (c.probe ?? c.sql)(x);
const argOf = (c, x) => (c.name === 'i32' ? x - 1000 : c.name === 'i64' ? (x - 1000) * 1000000007 : x);

await db.run(`CREATE TABLE src AS SELECT ${columns.map((c) => `${c.expr} AS ${c.name}`).join(', ')}
  FROM (SELECT (i * 7919) % 1000 AS k FROM range(${ROWS}) t(i))`);

// ---- (a) pqsift writes, DuckDB probes ----
const source = path.join(work, 'source.parquet');
await db.run(`COPY src TO ${q(source)} (FORMAT parquet, ROW_GROUP_SIZE ${GROUP})`);
const written = path.join(work, 'pqsift_bloom.parquet');
{
  const r = await run(['convert', source, written, '--row-group-rows', String(GROUP),
    '--bloom-filter', columns.map((c) => c.name).join(',')]);
  check(r.status === 0, 'pqsift convert --bloom-filter', `exit ${r.status} ${r.stderr}`);
}
const meta = await rows(`SELECT path_in_schema AS c, count(*) AS n, count(bloom_filter_offset) AS with_filter
  FROM parquet_metadata(${q(written)}) GROUP BY ALL`);
check(meta.length === columns.length && meta.every((m) => m.n === 4n && m.with_filter === 4n),
  'every chunk of the pqsift file has a bloom filter', JSON.stringify(meta, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
for (const c of columns) {
  let missed = [];
  let excluded = 0;
  for (const x of presentX) {
    const probe = await rows(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${q(written)}, '${c.name}', ${probeOf(c, argOf(c, x))})`);
    if (probe.length !== 4 || probe.some((p) => p.bloom_filter_excludes)) missed.push(x);
  }
  for (const x of absentX) {
    const probe = await rows(`SELECT bloom_filter_excludes FROM parquet_bloom_probe(${q(written)}, '${c.name}', ${probeOf(c, argOf(c, x))})`);
    excluded += probe.filter((p) => p.bloom_filter_excludes).length;
  }
  check(missed.length === 0, `(a) ${c.name}: DuckDB finds every present value in pqsift's filters`, `missed ${missed}`);
  if (c.excludes !== false) {
    check(excluded >= absentX.length * 4 - 2, `(a) ${c.name}: DuckDB excludes absent values with pqsift's filters`,
      `${excluded} of ${absentX.length * 4} row groups excluded`);
  }
}

// ---- (b) DuckDB writes, pqsift prunes ----
const duck = path.join(work, 'duckdb_bloom.parquet');
await db.run(`COPY src TO ${q(duck)} (FORMAT parquet, ROW_GROUP_SIZE ${GROUP})`);
const duckMeta = await rows(`SELECT DISTINCT path_in_schema AS c FROM parquet_metadata(${q(duck)}) WHERE bloom_filter_offset IS NOT NULL`);
const duckFiltered = new Set(duckMeta.map((m) => m.c));
check(duckFiltered.size >= 5, 'DuckDB wrote bloom filters on most columns', [...duckFiltered].join(','));
for (const c of columns) {
  if (!duckFiltered.has(c.name) || c.excludes === false) continue;
  const mismatches = [];
  for (const x of [...presentX, ...absentX]) {
    const arg = argOf(c, x);
    const where = `${c.name} = ${c.lit(arg)}`;
    const probe = await rows(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${q(duck)}, '${c.name}', ${probeOf(c, arg)}) ORDER BY row_group_id`);
    // Without the dictionary stage, which runs first and decides these dictionary-encoded columns
    // on its own: the bloom stage is judged alone.
    const explain = await run(['explain', duck, '--where', where, '--json', '--no-dictionary']);
    if (explain.status !== 0) { mismatches.push(`${where}: explain exit ${explain.status} ${explain.stderr}`); continue; }
    const plan = JSON.parse(explain.stdout);
    // Row groups another stage skipped first are not the filters' to decide.
    const groups = plan.files[0].row_groups;
    const undecided = (g) => !(g.decision === 'skip' && g.decided_by !== 'bloom filter');
    const skipped = groups.filter(undecided).map((g) => g.decision === 'skip');
    const expectSkipped = probe.filter((p, i) => undecided(groups[i])).map((p) => p.bloom_filter_excludes);
    if (c.excludes !== false && !expectSkipped.some((e) => e) && absentX.includes(x)) {
      mismatches.push(`${where}: DuckDB's filters exclude no row group`);
    }
    if (JSON.stringify(skipped) !== JSON.stringify(expectSkipped)) {
      mismatches.push(`${where}: pqsift skipped ${JSON.stringify(skipped)}, DuckDB excludes ${JSON.stringify(expectSkipped)}`);
    }
    const count = await run(['count', duck, '--where', where]);
    const expected = (await rows(`SELECT count(*) AS n FROM read_parquet(${q(duck)}) WHERE ${c.name} = ${c.sql(arg)}`))[0].n;
    if (count.status !== 0 || count.stdout.trim() !== String(expected)) {
      mismatches.push(`${where}: pqsift count ${count.stdout.trim()} (exit ${count.status} ${count.stderr}), DuckDB ${expected}`);
    }
  }
  check(mismatches.length === 0, `(b) ${c.name}: pqsift prunes exactly the row groups DuckDB's filters exclude, counts agree`,
    mismatches.slice(0, 3).join('; '));
}
finish();

#!/usr/bin/env node
// Dataset benchmark (issue 10): 2,000 files hive-partitioned by day, 10,000 rows each
// (bench/data/dataset-v1/day=YYYY-MM-DD/*.parquet, written once by DuckDB's PARTITION_BY and
// kept). Two questions:
//   counts (default, deterministic, fine on a busy machine): what pqsift opens and reads for
//     1. a one-day predicate (day = DATE '...'): files opened and footers read must be that
//        day's only;
//     2. with a manifest (pqsift index), a predicate on a non-partition column that matches 1%
//        of the files (id BETWEEN ...: ids are sorted across days): footers read must be at most
//        those files'; and the same without the manifest, for comparison;
//   --timed: wall and CPU time of pqsift (without and with a manifest), DuckDB
//     (read_parquet('.../**/*.parquet', hive_partitioning=true)) and Polars (scanParquet with
//     hive partitioning) on the same queries (count(*)), N threads each (default 2), K
//     interleaved runs after a warm-up, medians; the row counts must agree (exit 1 otherwise).
//     Needs a quiet machine.
//
//   node bench/dataset_vs_peers.mjs [--pqsift PATH] [--timed] [--runs K] [--threads N] [--out FILE]
//
// Writes a Markdown report to stdout (and to --out FILE).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const peers = path.join(root, 'tools', 'peers', 'node_modules');
const GENERATOR = 'dataset-v1';  // bump when the SQL below changes
const DAYS = 2000;
const ROWS_PER_DAY = 10_000;
const FIRST_DAY = '2020-01-01';

const args = { pqsift: path.join(root, 'build', 'src', 'pqsift'), timed: false, runs: 5, out: null, threads: 2 };
for (let i = 2; i < process.argv.length; i++) {
  const x = process.argv[i];
  if (x === '--pqsift') args.pqsift = process.argv[++i];
  else if (x === '--timed') args.timed = true;
  else if (x === '--runs') args.runs = Number(process.argv[++i]);
  else if (x === '--out') args.out = process.argv[++i];
  else if (x === '--threads') args.threads = Number(process.argv[++i]);
  else { console.error(`unknown argument ${x}`); process.exit(2); }
}
const dir = path.join(root, 'bench', 'data', GENERATOR);

async function duck() {
  const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, '@duckdb/node-api/lib/index.js')));
  const instance = await DuckDBInstance.create(':memory:');
  return instance.connect();
}

async function generate() {
  if (fs.existsSync(path.join(dir, '.complete'))) return;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const con = await duck();
  process.stderr.write(`writing ${DAYS} files of ${ROWS_PER_DAY} rows to ${dir} ...\n`);
  await con.run(`COPY (SELECT i AS id, (hash(i) % 100000)::BIGINT AS user_id,
                        (hash(i, 1) % 100000)::DOUBLE / 100 AS amount,
                        ['eu','us','apac','latam'][1 + (hash(i, 2) % 4)::INTEGER] AS region,
                        DATE '${FIRST_DAY}' + (i // ${ROWS_PER_DAY})::INTEGER AS day
                 FROM range(${DAYS * ROWS_PER_DAY}) t(i))
                 TO '${dir}' (FORMAT parquet, PARTITION_BY (day), ROW_GROUP_SIZE ${ROWS_PER_DAY})`);
  fs.writeFileSync(path.join(dir, '.complete'), `${GENERATOR}\n`);
}

function pqsift(argv) {
  const statsFile = path.join(dir, '..', `${GENERATOR}-stats.json`);
  const r = spawnSync('/usr/bin/time', ['-f', 'PQSIFT_CPU %U %S', args.pqsift, ...argv, '--stats-json', statsFile],
                      { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`pqsift ${argv.join(' ')}: ${r.stderr}`);
  const cpu = /PQSIFT_CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { out: r.stdout.trim(), stats: JSON.parse(fs.readFileSync(statsFile, 'utf8')),
           cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1e3 : null };
}

const day = (n) => new Date(Date.parse(FIRST_DAY) + n * 86400e3).toISOString().slice(0, 10);
const oneDay = day(1234);
const firstFile = 500;  // 1% of the files: 20 days of ids
const idLo = firstFile * ROWS_PER_DAY + 17;
const idHi = (firstFile + DAYS / 100) * ROWS_PER_DAY - 17 - 1;
const QUERIES = [
  { name: `one day (day = DATE '${oneDay}')`, where: `day = DATE '${oneDay}'`,
    duck: `day = DATE '${oneDay}'`,
    polars: (pl) => pl.col('day').eq(pl.lit(new Date(`${oneDay}T00:00:00Z`)).cast(pl.Date)) },
  { name: `1% of the files by a file column (id BETWEEN ${idLo} AND ${idHi})`, where: `id BETWEEN ${idLo} AND ${idHi}`,
    duck: `id BETWEEN ${idLo} AND ${idHi}`,
    polars: (pl) => pl.col('id').gtEq(pl.lit(idLo).cast(pl.Int64)).and(pl.col('id').ltEq(pl.lit(idHi).cast(pl.Int64))) },
];

await generate();
const manifest = path.join(dir, '_pqsift_manifest.parquet');
const lines = [`# pqsift datasets: ${DAYS} files (hive-partitioned by day), ${ROWS_PER_DAY} rows each`, ''];
lines.push('## What pqsift opens (counts; deterministic)', '',
           '| query | manifest | answer | files total | skipped by partition | skipped by manifest | files opened | footers read | bytes read | CPU ms |',
           '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const row = (q, m, r) => lines.push(`| ${q.name} | ${m} | ${r.out} | ${r.stats.files_total} | ${r.stats.files_skipped_by_partition} | ` +
                                    `${r.stats.files_skipped_by_manifest} | ${r.stats.files} | ${r.stats.footers_read} | ${r.stats.bytes_read} | ${r.cpuMs?.toFixed(0) ?? 'n/a'} |`);
fs.rmSync(manifest, { force: true });
for (const q of QUERIES) row(q, 'none', pqsift(['count', dir, '--where', q.where]));
pqsift(['count', dir]);  // warms nothing across processes: each run is a new process
spawnSync(args.pqsift, ['index', dir], { stdio: 'ignore' });
for (const q of QUERIES) row(q, 'fresh', pqsift(['count', dir, '--where', q.where]));
fs.rmSync(manifest, { force: true });

if (args.timed) {
  // Each engine answers count(*) with the same predicate and THREADS threads, interleaved
  // (pqsift, DuckDB, Polars, pqsift, ...) after one warm-up round, files in the page cache. pqsift
  // is a new process each run (start-up and footer reads included); DuckDB and Polars run in this
  // process, timed around the query (their CPU: this process's user+sys over the query).
  process.env.POLARS_MAX_THREADS = String(args.threads);  // read when Polars loads its pool
  const pl = (await import(pathToFileURL(path.join(peers, 'nodejs-polars/bin/index.js')))).default;
  const con = await duck();
  await con.run(`SET threads = ${args.threads}`);
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const inProcess = async (fn) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const rows = await fn();
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1e3, rows: Number(rows) };
  };
  const pqsiftCount = async (q) => {
    const t = performance.now();
    const r = pqsift(['count', dir, '--where', q.where, '--threads', String(args.threads)]);
    return { ms: performance.now() - t, cpuMs: r.cpuMs, rows: Number(r.out) };
  };
  const engines = {
    pqsift: pqsiftCount,
    'pqsift (manifest)': pqsiftCount,  // the same command; the loop writes the manifest first
    duckdb: (q) => inProcess(async () => (await con.runAndReadAll(
      `SELECT count(*) FROM read_parquet('${dir}/**/*.parquet', hive_partitioning=true) WHERE ${q.duck}`)).getRows()[0][0]),
    polars: (q) => inProcess(async () => (await pl.scanParquet(`${dir}/**/*.parquet`, { hivePartitioning: true })
      .filter(q.polars(pl)).select(pl.len()).collect()).toRecords()[0].len),
  };
  lines.push('', `## Time: count(*) with the predicate, ${args.threads} threads each, median of ${args.runs} interleaved runs after a warm-up`, '',
             '| query | engine | wall ms (median) | CPU ms (median) | rows | pqsift / engine (wall) |', '| --- | --- | ---: | ---: | ---: | ---: |');
  let disagreements = 0;
  for (const q of QUERIES) {
    const samples = Object.fromEntries(Object.keys(engines).map((e) => [e, []]));
    for (let k = 0; k <= args.runs; k++) {
      for (const [name, run] of Object.entries(engines)) {
        if (name === 'pqsift (manifest)') spawnSync(args.pqsift, ['index', dir], { stdio: 'ignore' });
        const r = await run(q);
        if (name === 'pqsift (manifest)') fs.rmSync(manifest, { force: true });
        if (k > 0) samples[name].push(r);  // run 0 warms the page cache and the engines
      }
    }
    const wall = (e) => median(samples[e].map((x) => x.ms));
    const rowsOf = (e) => [...new Set(samples[e].map((x) => x.rows))];
    const expected = rowsOf('duckdb');
    for (const e of Object.keys(engines)) {
      const rows = rowsOf(e);
      if (rows.length !== 1 || rows[0] !== expected[0]) {
        disagreements++;
        process.stderr.write(`ROW COUNT DISAGREEMENT: ${q.name}: ${e} returned ${rows.join(', ')}, DuckDB ${expected.join(', ')}\n`);
      }
      const ratio = e.startsWith('pqsift') ? '' : (wall('pqsift') / wall(e)).toFixed(3);
      lines.push(`| ${q.name} | ${e} | ${wall(e).toFixed(0)} | ${median(samples[e].map((x) => x.cpuMs)).toFixed(0)} | ${rows.join(', ')} | ${ratio} |`);
    }
  }
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  lines.push('', `Machine: ${os.cpus().length} cores (${os.cpus()[0].model}), load average after the runs ${load}; ` +
             `pqsift ${args.pqsift}; DuckDB ${(await con.runAndReadAll('SELECT version()')).getRows()[0][0]}; nodejs-polars 0.25.2; ` +
             `${new Date().toISOString()}. "pqsift (manifest)" runs with a fresh manifest written before each run (not timed).`);
  if (disagreements) {
    process.stdout.write(lines.join('\n') + '\n');
    process.stderr.write(`${disagreements} row count disagreements\n`);
    process.exit(1);
  }
}
const report = lines.join('\n') + '\n';
process.stdout.write(report);
if (args.out) fs.writeFileSync(args.out, report);

#!/usr/bin/env node
// Convert benchmark: `pqsift convert` of a CSV file against DuckDB's
// `COPY (SELECT * FROM read_csv(...)) TO ... (FORMAT parquet)` on the same input.
//
//   node bench/convert_vs_duckdb.mjs [--pqsift PATH] [--rows N] [--runs K] [--threads N]
//        [--out FILE] [--data-dir DIR] [--max-load L]
//
// Every measured run is its own child process under /usr/bin/time (pqsift itself, or this script
// in --child mode for DuckDB), so peak RSS and CPU time are per engine and per run; the two are
// interleaved (alternating which goes first) after one warm-up run each. Writes a Markdown report
// to stdout and bench/results/convert.md. See bench/README.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const peers = path.join(root, 'tools', 'peers', 'node_modules');
const self = fileURLToPath(import.meta.url);

const GENERATOR_VERSION = 'convert-v1'; // bump when the SQL below changes: invalidates bench/data
const CATEGORIES = ['books', 'games', 'music', 'garden', 'toys', 'food', 'tools', 'sport'];

const sql = (s) => `'${String(s).replaceAll("'", "''")}'`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const fmt = (x) => (x == null || !Number.isFinite(x) ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

async function loadDuckDB() {
  return import(pathToFileURL(path.join(peers, '@duckdb', 'node-api', 'lib', 'index.js')));
}

function procStatusKb(field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : null;
}

// ---------------------------------------------------------------------------------------------
// Child mode: one DuckDB COPY. Prints one JSON line: the COPY's wall time, and the process's
// peak RSS just before it (Node.js + DuckDB loaded) for the report's baseline.
//   --child duckdb --csv F --out O --threads N

async function child(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i += 2) o[argv[i].replace(/^--/, '')] = argv[i + 1];
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:', { threads: String(o.threads) });
  const con = await instance.connect();
  await con.run(`SET threads = ${Number(o.threads)}`);
  const baselineKb = procStatusKb('VmHWM');
  const t0 = process.hrtime.bigint();
  await con.run(`COPY (SELECT * FROM read_csv(${sql(o.csv)})) TO ${sql(o.out)} (FORMAT parquet)`);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(JSON.stringify({ ms, baselineKb }) + '\n');
}

// ---------------------------------------------------------------------------------------------
// Parent mode

function usage(msg) {
  if (msg) process.stderr.write(`convert_vs_duckdb: ${msg}\n`);
  process.stderr.write('usage: node bench/convert_vs_duckdb.mjs [--pqsift PATH] [--rows N] [--runs K] [--threads N] ' +
                       '[--out FILE] [--data-dir DIR] [--max-load L]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const args = {
    pqsift: path.join(root, 'build', 'src', 'pqsift'), rows: 20_000_000, runs: 3, threads: 2,
    out: path.join(here, 'results', 'convert.md'), dataDir: path.join(here, 'data'), maxLoad: 3,
  };
  for (let i = 0; i < argv.length; i++) {
    const v = () => { if (i + 1 >= argv.length) usage(`${argv[i]} needs a value`); return argv[++i]; };
    switch (argv[i]) {
      case '--pqsift': args.pqsift = path.resolve(v()); break;
      case '--rows': args.rows = Number(v()); break;
      case '--runs': args.runs = Number(v()); break;
      case '--threads': args.threads = Number(v()); break;
      case '--out': args.out = path.resolve(v()); break;
      case '--data-dir': args.dataDir = path.resolve(v()); break;
      case '--max-load': args.maxLoad = Number(v()); break;
      default: usage(`unknown argument ${argv[i]}`);
    }
  }
  if (!(args.rows > 0) || !(args.runs > 0) || !(args.threads > 0)) usage('--rows, --runs and --threads must be positive');
  return args;
}

// id sorted; ts rising about 1 s per row (with microseconds); category of 8 values at random;
// price with two decimals; qty 0..99; note 20 hex characters; key 16 random hex characters.
function generatorSql(rows) {
  return `SELECT i::BIGINT AS id,
    TIMESTAMP '2026-01-01' + to_microseconds(i * 1000003) AS ts,
    ([${CATEGORIES.map(sql).join(', ')}])[1 + (hash(i) % ${CATEGORIES.length})::INTEGER] AS category,
    round((hash(i * 7) % 100000) / 100.0, 2)::DOUBLE AS price,
    (hash(i * 13) % 100)::INTEGER AS qty,
    substr(md5(i::VARCHAR), 1, 20) AS note,
    substr(md5((i * 31 + 7)::VARCHAR), 1, 16) AS key
  FROM range(${rows}) t(i)`;
}

// The CSV input, written once by DuckDB and reused while its sidecar says it is the same.
async function ensureCsv(args) {
  fs.mkdirSync(args.dataDir, { recursive: true });
  const csv = path.join(args.dataDir, `convert_${args.rows}.csv`);
  const meta = `${csv}.json`;
  const want = { generator: GENERATOR_VERSION, rows: args.rows };
  try {
    const have = JSON.parse(fs.readFileSync(meta, 'utf8'));
    if (have.generator === want.generator && have.rows === want.rows && fs.statSync(csv).size === have.bytes) return csv;
  } catch { /* absent or stale: write it */ }
  process.stderr.write(`convert_vs_duckdb: writing ${csv} (${args.rows} rows)\n`);
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:', { threads: String(args.threads) });
  const con = await instance.connect();
  await con.run('SET preserve_insertion_order = true');
  await con.run(`COPY (${generatorSql(args.rows)}) TO ${sql(`${csv}.tmp`)} (FORMAT csv, HEADER)`);
  fs.renameSync(`${csv}.tmp`, csv);
  fs.writeFileSync(meta, JSON.stringify({ ...want, bytes: fs.statSync(csv).size }));
  return csv;
}

// One process under /usr/bin/time: wall time around the process, its peak RSS and CPU time.
function timed(argv, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCH_MAXRSS_KB=%M BENCH_CPU_S=%U+%S', ...argv],
                      { encoding: 'utf8', env, maxBuffer: 1 << 22 });
  const processMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr.trim().slice(-2000)}`);
  const peak = /BENCH_MAXRSS_KB=(\d+)/.exec(r.stderr);
  const cpu = /BENCH_CPU_S=([0-9.]+)\+([0-9.]+)/.exec(r.stderr);
  return { processMs, stdout: r.stdout, stderr: r.stderr, peakKb: peak ? Number(peak[1]) : null,
           cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1e3 : null };
}

function runPqsift(args, csv, out) {
  const r = timed([args.pqsift, 'convert', csv, out, '--stats']);
  const seconds = /seconds ([0-9.e+-]+)/.exec(r.stderr);
  // The convert's own time (--stats: open to close), the peer's measure; process start aside.
  return { ms: seconds ? Number(seconds[1]) * 1e3 : r.processMs, processMs: r.processMs, cpuMs: r.cpuMs, peakKb: r.peakKb,
           bytes: fs.statSync(out).size };
}

function runDuckDB(args, csv, out) {
  const r = timed([process.execPath, self, '--child', 'duckdb', '--csv', csv, '--out', out, '--threads', String(args.threads)]);
  const j = JSON.parse(r.stdout.trim().split('\n').pop());
  // CPU time and peak RSS are the whole process's (Node.js and DuckDB start-up included).
  return { ms: j.ms, processMs: r.processMs, cpuMs: r.cpuMs, peakKb: r.peakKb, baselineKb: j.baselineKb,
           bytes: fs.statSync(out).size };
}

function uptime() {
  try { return execFileSync('uptime', { encoding: 'utf8' }).trim(); } catch { return `loadavg ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`; }
}
async function waitForQuiet(maxLoad) {
  for (let waited = 0; os.loadavg()[0] > maxLoad && waited < 600; waited += 30) {
    process.stderr.write(`convert_vs_duckdb: load ${os.loadavg()[0].toFixed(2)} > ${maxLoad}, waiting 30 s (${uptime()})\n`);
    await new Promise((r) => setTimeout(r, 30000));
  }
}
function gitRevision() {
  try { return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(); } catch { return 'unknown'; }
}
function cpuModel() {
  const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
  return m ? m[1] : 'unknown';
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!fs.existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is needed for peak RSS (apt-get install time)');
  if (!fs.existsSync(args.pqsift)) throw new Error(`${args.pqsift} not found (cmake --build build --target pqsift_cli)`);
  const csv = await ensureCsv(args);
  const csvBytes = fs.statSync(csv).size;
  const work = path.join(args.dataDir, 'convert_out');
  fs.mkdirSync(work, { recursive: true });
  const outPq = path.join(work, 'pqsift.parquet');
  const outDuck = path.join(work, 'duckdb.parquet');

  await waitForQuiet(args.maxLoad);
  const loadBefore = uptime();
  // Warm-up (discarded; the CSV in the page cache for both), then interleaved runs.
  runPqsift(args, csv, outPq);
  runDuckDB(args, csv, outDuck);
  const samples = { pqsift: [], duckdb: [] };
  for (let i = 0; i < args.runs; i++) {
    const order = i % 2 === 0 ? ['pqsift', 'duckdb'] : ['duckdb', 'pqsift'];
    for (const engine of order) {
      samples[engine].push(engine === 'pqsift' ? runPqsift(args, csv, outPq) : runDuckDB(args, csv, outDuck));
    }
  }
  const loadAfter = uptime();

  // Both outputs hold every row (DuckDB counts them).
  const { DuckDBInstance } = await loadDuckDB();
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const count = async (f) => Number((await con.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM read_parquet(${sql(f)})`)).getRowObjectsJson()[0].n);
  const [pqRows, duckRows] = [await count(outPq), await count(outDuck)];
  if (pqRows !== args.rows || duckRows !== args.rows) throw new Error(`row counts: pqsift ${pqRows}, DuckDB ${duckRows}, want ${args.rows}`);
  const duckVersion = (await con.runAndReadAll('SELECT version() AS v')).getRowObjectsJson()[0].v;

  const summary = (xs) => ({
    s: median(xs.map((x) => x.ms)) / 1e3,
    processS: median(xs.map((x) => x.processMs)) / 1e3,
    cpuS: median(xs.map((x) => x.cpuMs)) / 1e3,
    peakMb: Math.max(...xs.map((x) => x.peakKb)) / 1024,
    baselineMb: xs[0].baselineKb ? xs[0].baselineKb / 1024 : null,
    outMb: xs[0].bytes / 1e6,
  });
  const pq = summary(samples.pqsift);
  const dk = summary(samples.duckdb);
  const csvMb = csvBytes / 1e6;
  const lines = [];
  lines.push(`# Convert: pqsift vs DuckDB (CSV to Parquet)`, '');
  lines.push(`${args.rows.toLocaleString('en')} rows, CSV of ${fmt(csvMb)} MB (\`${path.relative(root, csv)}\`), ` +
             `${args.runs} interleaved runs after one warm-up each, medians. Generated ${new Date().toISOString()}.`, '');
  lines.push('| engine | time (s) | process (s) | CPU user+sys (s) | MB/s (CSV) | peak RSS (MB) | output (MB) |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  lines.push(`| pqsift convert | ${fmt(pq.s)} | ${fmt(pq.processS)} | ${fmt(pq.cpuS)} | ${fmt(csvMb / pq.s)} | ${fmt(pq.peakMb)} | ${fmt(pq.outMb)} |`);
  lines.push(`| DuckDB COPY | ${fmt(dk.s)} | ${fmt(dk.processS)} | ${fmt(dk.cpuS)} | ${fmt(csvMb / dk.s)} | ${fmt(dk.peakMb)} (${fmt(dk.baselineMb)} before the COPY) | ${fmt(dk.outMb)} |`);
  lines.push('', `DuckDB time / pqsift time: **${fmt(dk.s / pq.s)}** (above 1: pqsift faster).`, '');
  lines.push('## What is measured', '');
  lines.push(`- pqsift: \`pqsift convert CSV OUT --stats\` under \`/usr/bin/time\` (peak RSS, CPU); time = its --stats seconds ` +
             '(open to close). Two threads: the CSV is parsed on one, two batches of 65,536 rows ahead of the encoding on the other. ' +
             'Defaults: SNAPPY, row groups of 1,000,000 rows, pages of 20,000 rows, dictionary when smaller, statistics, page index.');
  lines.push(`- DuckDB ${duckVersion}: \`COPY (SELECT * FROM read_csv(CSV)) TO OUT (FORMAT parquet)\` with \`SET threads = ${args.threads}\`, ` +
             'in a Node.js child process (@duckdb/node-api) under `/usr/bin/time`; time = the COPY statement alone. ' +
             'DuckDB defaults: SNAPPY, row groups of 122,880 rows, no page index. Its CPU time and peak RSS include Node.js.');
  lines.push('- process = wall time of the whole child process (start-up included) for both.', '');
  lines.push('## Machine', '');
  lines.push(`- ${os.cpus().length} cores (${cpuModel()}), ${fmt(os.totalmem() / 2 ** 30)} GiB, ${os.release()}`);
  lines.push(`- pqsift ${gitRevision()}, Node.js ${process.version}`);
  lines.push(`- load before: ${loadBefore}`, `- load after: ${loadAfter}`, '');
  lines.push('## Samples (s)', '');
  lines.push(`- pqsift: ${samples.pqsift.map((x) => fmt(x.ms / 1e3)).join(', ')} (CPU ${samples.pqsift.map((x) => fmt(x.cpuMs / 1e3)).join(', ')})`);
  lines.push(`- DuckDB: ${samples.duckdb.map((x) => fmt(x.ms / 1e3)).join(', ')} (CPU ${samples.duckdb.map((x) => fmt(x.cpuMs / 1e3)).join(', ')})`);
  const report = lines.join('\n') + '\n';
  process.stdout.write(report);
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, report);
}

if (process.argv[2] === '--child') {
  await child(process.argv.slice(2));
} else {
  await main();
}

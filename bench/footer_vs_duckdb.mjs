#!/usr/bin/env node
// Footer decode benchmark: pqsift against DuckDB on one wide file (500 columns x 50 row groups).
//
//   node bench/footer_vs_duckdb.mjs --pqsift-bench PATH [--reps N] [--out FILE] [--data-dir DIR]
//
// PATH is a binary run as `PATH FILE ITERATIONS` that opens and decodes FILE's footer ITERATIONS
// times and prints exactly one line `per_footer_us=<float>` (a path ending in .mjs runs with node).
// Writes the Markdown report to bench/results/footer.md (or --out). See bench/README.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const peers = path.join(root, 'tools', 'peers');

const COLUMNS = 500;
const ROW_GROUPS = 50;
const ROWS_PER_GROUP = 2048; // DuckDB's row groups are multiples of its 2048-row vectors
const GENERATOR_VERSION = 'wide-v1'; // bump when the SQL below changes: invalidates bench/data

function usage(msg) {
  if (msg) process.stderr.write(`footer_vs_duckdb: ${msg}\n`);
  process.stderr.write('usage: node bench/footer_vs_duckdb.mjs --pqsift-bench PATH [--reps N] [--out FILE] [--data-dir DIR]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const a = { reps: 15, out: path.join(here, 'results', 'footer.md'), dataDir: path.join(here, 'data'), targetMs: 200 };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i];
    const v = () => { if (i + 1 >= argv.length) usage(`${k} needs a value`); return argv[++i]; };
    if (k === '--pqsift-bench') a.bench = v();
    else if (k === '--reps') a.reps = Number(v());
    else if (k === '--out') a.out = path.resolve(v());
    else if (k === '--data-dir') a.dataDir = path.resolve(v());
    else if (k === '--target-ms') a.targetMs = Number(v());
    else usage(`unknown argument ${k}`);
  }
  if (!a.bench) usage('--pqsift-bench is required');
  if (!Number.isInteger(a.reps) || a.reps < 1) usage('--reps must be a positive integer');
  return a;
}

function wideSelect() {
  const cols = [];
  for (let c = 0; c < COLUMNS; c++) {
    const nul = (e) => `CASE WHEN (i + ${c}) % 97 = 0 THEN NULL ELSE ${e} END`;
    cols.push([
      `${nul(`(i * ${c + 1}) % 1000003 - 500000`)}::BIGINT AS c${c}_i64`,
      `${nul(`((i + ${c}) % 10007) / 7.0`)}::DOUBLE AS c${c}_f64`,
      `${nul(`'v' || ((i * 31 + ${c}) % 5000)`)}::VARCHAR AS c${c}_str`,
      `${nul(`DATE '2000-01-01' + ((i + ${c}) % 9000)::INTEGER`)}::DATE AS c${c}_date`,
    ][c % 4]);
  }
  return `SELECT ${cols.join(', ')} FROM range(${ROW_GROUPS * ROWS_PER_GROUP}) t(i)`;
}

const sql = (s) => `'${String(s).replaceAll("'", "''")}'`;

async function shape(con, file) {
  const r = await con.runAndReadAll(
    `SELECT count(DISTINCT row_group_id)::INTEGER AS rgs, count(DISTINCT column_id)::INTEGER AS cols,
            min(row_group_num_rows)::INTEGER AS mn, max(row_group_num_rows)::INTEGER AS mx
     FROM parquet_metadata(${sql(file)})`);
  const f = await con.runAndReadAll(
    `SELECT footer_size::BIGINT AS footer, file_size_bytes::BIGINT AS size FROM parquet_file_metadata(${sql(file)})`);
  const kv = await con.runAndReadAll(
    `SELECT decode(value) AS v FROM parquet_kv_metadata(${sql(file)}) WHERE decode(key) = 'pqsift_generator'`);
  const [s] = r.getRowObjectsJson();
  const [g] = f.getRowObjectsJson();
  return { rowGroups: s.rgs, columns: s.cols, minRows: s.mn, maxRows: s.mx,
           footerBytes: Number(g.footer), fileBytes: Number(g.size), generator: kv.getRowObjectsJson()[0]?.v };
}

async function ensureWideFile(con, dataDir) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, `wide_${COLUMNS}c_${ROW_GROUPS}rg.parquet`);
  const ok = (s) => s.rowGroups === ROW_GROUPS && s.columns === COLUMNS && s.minRows === ROWS_PER_GROUP &&
                    s.maxRows === ROWS_PER_GROUP && s.generator === GENERATOR_VERSION;
  if (fs.existsSync(file)) {
    try { if (ok(await shape(con, file))) return file; } catch { /* regenerate below */ }
  }
  process.stderr.write(`footer_vs_duckdb: writing ${file} (${COLUMNS} columns x ${ROW_GROUPS} row groups) ...\n`);
  const tmp = `${file}.tmp`;
  await con.run(`COPY (${wideSelect()}) TO ${sql(tmp)} (FORMAT parquet, COMPRESSION zstd, ` +
                `ROW_GROUP_SIZE ${ROWS_PER_GROUP}, KV_METADATA {pqsift_generator: '${GENERATOR_VERSION}'})`);
  fs.renameSync(tmp, file);
  const s = await shape(con, file);
  if (!ok(s)) throw new Error(`DuckDB wrote ${JSON.stringify(s)}, expected ${ROW_GROUPS} row groups of ${ROWS_PER_GROUP} rows and ${COLUMNS} columns`);
  return file;
}

function runBench(bench, file, iterations) {
  const [cmd, pre] = bench.endsWith('.mjs') ? [process.execPath, [bench]] : [bench, []];
  const out = execFileSync(cmd, [...pre, file, String(iterations)], { encoding: 'utf8', timeout: 600000 });
  const lines = out.split('\n').filter((l) => l.trim() !== '');
  const m = lines.length === 1 ? /^per_footer_us=([0-9.eE+-]+)$/.exec(lines[0].trim()) : null;
  if (!m || !Number.isFinite(Number(m[1])) || Number(m[1]) <= 0) {
    throw new Error(`${bench} printed ${JSON.stringify(out.slice(0, 200))}, expected one line per_footer_us=<float>`);
  }
  return Number(m[1]);
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

function cpuModel() {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    return m ? m[1].trim() : os.cpus()[0]?.model ?? 'unknown';
  } catch { return os.cpus()[0]?.model ?? 'unknown'; }
}

function gitRevision() {
  try {
    const rev = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return rev + (dirty ? ' (with uncommitted changes)' : '');
  } catch { return 'unknown'; }
}

async function main() {
  const args = parseArgs(process.argv);
  if (!fs.existsSync(path.join(peers, 'node_modules', '@duckdb', 'node-api', 'package.json'))) {
    throw new Error(`${path.join(peers, 'node_modules')} is missing: run scripts/setup`);
  }
  const bench = path.resolve(args.bench);
  if (!fs.existsSync(bench)) throw new Error(`no such file: ${bench}`);
  const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules', '@duckdb', 'node-api', 'lib', 'index.js')));

  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await instance.connect();
  await con.run('SET threads = 1');
  const duckVersion = (await con.runAndReadAll('SELECT version() AS v')).getRowObjectsJson()[0].v;
  const file = await ensureWideFile(con, args.dataDir);
  const s = await shape(con, file);

  const metadataSql = `SELECT * FROM parquet_metadata(${sql(file)})`;
  const fileMetadataSql = `SELECT * FROM parquet_file_metadata(${sql(file)})`;
  const duckdbOnce = async (q, expectRows) => {
    const t = process.hrtime.bigint();
    const reader = await con.runAndReadAll(q); // every result chunk fetched into the client
    const us = Number(process.hrtime.bigint() - t) / 1e3;
    if (reader.currentRowCount !== expectRows) throw new Error(`${q} returned ${reader.currentRowCount} rows, expected ${expectRows}`);
    return us;
  };

  // Warm-up (file in the page cache, DuckDB's and pqsift's code paths hot) and calibration of
  // pqsift's ITERATIONS so that ITERATIONS footers take about --target-ms (the binary may repeat
  // that in batches and report their median).
  for (let k = 0; k < 3; k++) await duckdbOnce(metadataSql, ROW_GROUPS * COLUMNS);
  await duckdbOnce(fileMetadataSql, 1);
  const probe = runBench(bench, file, 3);
  const iterations = Math.max(3, Math.min(1000000, Math.ceil((args.targetMs * 1000) / probe)));
  runBench(bench, file, iterations);

  const duck = [];
  const duckFile = [];
  const ours = [];
  for (let r = 0; r < args.reps; r++) {
    // Interleaved, alternating which engine goes first, so drift hits both alike.
    const steps = [async () => duck.push(await duckdbOnce(metadataSql, ROW_GROUPS * COLUMNS)),
                   async () => duckFile.push(await duckdbOnce(fileMetadataSql, 1)),
                   async () => ours.push(runBench(bench, file, iterations))];
    if (r % 2) steps.reverse();
    for (const step of steps) await step();
    process.stderr.write(`rep ${r + 1}/${args.reps}: duckdb ${fmt(duck.at(-1))} us, duckdb file_metadata ${fmt(duckFile.at(-1))} us, pqsift ${fmt(ours.at(-1))} us\n`);
  }
  const d = median(duck);
  const df = median(duckFile);
  const o = median(ours);

  const rel = path.relative(root, file);
  const table = [
    '| file | footer bytes | columns | row groups | DuckDB µs per footer | pqsift µs per footer | ratio DuckDB/pqsift |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${rel} | ${s.footerBytes} | ${s.columns} | ${s.rowGroups} | ${fmt(d)} | ${fmt(o)} | ${(d / o).toFixed(1)} |`,
  ].join('\n');
  const nodeVersion = process.version;
  const peersLock = JSON.parse(fs.readFileSync(path.join(peers, 'package-lock.json'), 'utf8'));
  const nodeApi = peersLock.packages['node_modules/@duckdb/node-api']?.version ?? 'unknown';
  const report = `# Footer decode: pqsift vs DuckDB

${table}

DuckDB's \`parquet_file_metadata()\` on the same file (opens the file and decodes the whole footer,
returns one row): median ${fmt(df)} µs, ratio to pqsift ${(df / o).toFixed(1)}.

- DuckDB: median of ${args.reps} fresh \`SELECT * FROM parquet_metadata('${path.basename(file)}')\` queries,
  each fully fetched (${ROW_GROUPS * COLUMNS} rows: one per column chunk, statistics rendered as text),
  one connection kept open, \`SET threads=1\`, warm page cache.
- pqsift: median of ${args.reps} runs of \`${path.relative(root, bench)} FILE ${iterations}\`, each printing
  its own µs per open + footer decode (\`per_footer_us\`).
- The two are interleaved in one process (alternating order), after warm-up.
- File: ${s.fileBytes} bytes, ${COLUMNS} columns (BIGINT, DOUBLE, VARCHAR, DATE in turn, with NULLs),
  ${ROW_GROUPS} row groups of ${ROWS_PER_GROUP} rows, zstd, written by DuckDB (\`bench/footer_vs_duckdb.mjs\`).

| | |
| --- | --- |
| date | ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} |
| machine | ${os.cpus().length} cores (nproc), ${cpuModel()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB |
| OS | ${os.type()} ${os.release()} |
| pqsift | git ${gitRevision()} |
| DuckDB | ${duckVersion} (@duckdb/node-api ${nodeApi}) |
| Node.js | ${nodeVersion} |
| samples | DuckDB parquet_metadata µs: ${duck.map(fmt).join(', ')} |
| | pqsift µs: ${ours.map(fmt).join(', ')} |
`;
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, report);
  process.stdout.write(`${table}\n\nwritten to ${path.relative(process.cwd(), args.out) || args.out}\n`);
}

main().catch((e) => { process.stderr.write(`footer_vs_duckdb: ${e.message}\n`); process.exit(1); });

#!/usr/bin/env node
// Footer decode benchmark: pqsift against DuckDB on one wide file (500 columns x 50 row groups).
//
//   node bench/footer_vs_duckdb.mjs --pqsift-bench PATH [--reps N] [--out FILE] [--data-dir DIR]
//
// PATH is a binary run as `PATH FILE ITERATIONS` that opens and decodes FILE's footer ITERATIONS
// times and prints exactly one line `per_footer_us=<float>` (optionally followed by ` rows=<n>`) (a path ending in .mjs runs with node).
// Writes the Markdown report to bench/results/footer.md (or --out). See bench/README.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { COLUMNS, ROW_GROUPS, ROWS_PER_GROUP, ensureWideFile, shape } from './lib/wide.mjs';
import { cpuModel, gitRevision, median, sql } from './lib/common.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const peers = path.join(root, 'tools', 'peers');

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

function runBench(bench, file, iterations) {
  const [cmd, pre] = bench.endsWith('.mjs') ? [process.execPath, [bench]] : [bench, []];
  const out = execFileSync(cmd, [...pre, file, String(iterations)], { encoding: 'utf8', timeout: 600000 });
  const lines = out.split('\n').filter((l) => l.trim() !== '');
  const m = lines.length === 1 ? /^per_footer_us=([0-9.eE+-]+)(?: rows=\d+)?$/.exec(lines[0].trim()) : null;
  if (!m || !Number.isFinite(Number(m[1])) || Number(m[1]) <= 0) {
    throw new Error(`${bench} printed ${JSON.stringify(out.slice(0, 200))}, expected one line per_footer_us=<float>`);
  }
  return Number(m[1]);
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

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

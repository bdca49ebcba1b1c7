#!/usr/bin/env node
// Interop test: `pqsift inspect --json` against DuckDB's parquet_metadata() on files written by
// DuckDB, Polars and parquet-wasm (tools/peers/make_files.mjs).
//
//   node tests/interop/inspect_vs_duckdb.mjs --pqsift PATH --workdir DIR [--max-shown N] [--keep-going]
//
// PATH is the pqsift binary (a path ending in .mjs is run with node: see selftest.mjs).
// Writes DIR/files/*.parquet, DIR/out/<file>.{pqsift,duckdb}.json and DIR/mismatches.txt.
// Prints one PASS/FAIL line per file (with its first mismatches), then exactly
//   inspect_vs_duckdb: N passed, M failed
// and exits 1 when M > 0 or N == 0. What is normalised, and why: tests/interop/README.md.

import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');
const NAME = 'inspect_vs_duckdb';

function finish(passed, failed, extra) {
  if (extra) process.stdout.write(extra + '\n');
  process.stdout.write(`${NAME}: ${passed} passed, ${failed} failed\n`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

function parseArgs(argv) {
  const args = { maxShown: 25 };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--pqsift') args.pqsift = argv[++i];
    else if (a === '--workdir') args.workdir = argv[++i];
    else if (a === '--max-shown') args.maxShown = Number(argv[++i]);
    else if (a === '--only') args.only = argv[++i];
    else { process.stderr.write(`${NAME}: unknown argument ${a}\n`); process.exit(2); }
  }
  if (!args.pqsift || !args.workdir) {
    process.stderr.write(`usage: node tests/interop/${NAME}.mjs --pqsift PATH --workdir DIR [--max-shown N] [--only SUBSTRING]\n`);
    process.exit(2);
  }
  return args;
}

export function runInspect(pqsift, file) {
  const [cmd, pre] = pqsift.endsWith('.mjs') ? [process.execPath, [pqsift]] : [pqsift, []];
  const stdout = execFileSync(cmd, [...pre, 'inspect', '--json', file], {
    encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(stdout);
}

async function main() {
  const args = parseArgs(process.argv);

  // The peers are installed by scripts/setup (npm ci in tools/peers). Without them this test
  // cannot compare anything, and that is a failure, never a silent pass.
  const needed = ['@duckdb/node-api', 'nodejs-polars', 'nodejs-polars-linux-x64-gnu', 'parquet-wasm', 'hyparquet'];
  const missing = needed.filter((p) => !fs.existsSync(path.join(peers, 'node_modules', p, 'package.json')));
  if (missing.length) {
    finish(0, 1, `${NAME}: FAIL: ${path.join(peers, 'node_modules')} lacks ${missing.join(', ')}; ` +
                 `run scripts/setup (it runs "npm ci" in tools/peers) and try again`);
  }
  const pqsift = path.resolve(args.pqsift);
  if (!fs.existsSync(pqsift)) finish(0, 1, `${NAME}: FAIL: pqsift binary not found: ${pqsift}`);

  const { makeFiles } = await import(pathToFileURL(path.join(peers, 'make_files.mjs')));
  const { openDuckDB, duckdbMetadata } = await import(pathToFileURL(path.join(peers, 'duckdb_metadata.mjs')));
  const { rawFooter } = await import(pathToFileURL(path.join(peers, 'raw_footer.mjs')));
  const { compareInspect } = await import(pathToFileURL(path.join(here, 'compare_inspect.mjs')));

  const workdir = path.resolve(args.workdir);
  const filesDir = path.join(workdir, 'files');
  const outDir = path.join(workdir, 'out');
  fs.rmSync(workdir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });

  const t0 = Date.now();
  let files = await makeFiles(filesDir);
  if (args.only) files = files.filter((f) => path.basename(f).includes(args.only));
  process.stdout.write(`${NAME}: ${files.length} files written in ${Date.now() - t0} ms to ${filesDir}\n`);

  const { connection } = await openDuckDB();
  let passed = 0;
  let failed = 0;
  const report = [];
  for (const file of files) {
    const base = path.basename(file);
    let problems = [];
    let notes = [];
    try {
      const duck = await duckdbMetadata(connection, file);
      fs.writeFileSync(path.join(outDir, `${base}.duckdb.json`), JSON.stringify(duck, null, 1));
      let ours;
      try {
        ours = runInspect(pqsift, file);
      } catch (e) {
        const stderr = e.stderr ? String(e.stderr).trim().slice(0, 2000) : '';
        throw new Error(`pqsift inspect --json failed (${e.status !== undefined ? `exit ${e.status}` : e.message})` +
                        (stderr ? `: ${stderr}` : ''));
      }
      fs.writeFileSync(path.join(outDir, `${base}.pqsift.json`), JSON.stringify(ours, null, 1));
      const result = compareInspect(duck, ours, rawFooter(file));
      problems = result.items.map((x) => `${x.where}: ${x.field}: duckdb=${x.duckdb} pqsift=${x.pqsift}`);
      notes = [`${result.chunksCompared} column chunks, ${result.boundsCompared} min/max bounds`, ...result.notes];
    } catch (e) {
      problems = [`error: ${e.message}`];
    }
    if (problems.length === 0) {
      passed++;
      process.stdout.write(`PASS ${base}  (${notes.join('; ')})\n`);
    } else {
      failed++;
      process.stdout.write(`FAIL ${base}: ${problems.length} mismatch(es)\n`);
      for (const p of problems.slice(0, args.maxShown)) process.stdout.write(`  ${p}\n`);
      if (problems.length > args.maxShown) {
        process.stdout.write(`  ... ${problems.length - args.maxShown} more in ${path.join(workdir, 'mismatches.txt')}\n`);
      }
    }
    report.push(`== ${base}: ${problems.length ? 'FAIL' : 'PASS'}`, ...problems.map((p) => `  ${p}`), ...notes.map((n) => `  note: ${n}`));
  }
  fs.writeFileSync(path.join(workdir, 'mismatches.txt'), report.join('\n') + '\n');
  finish(passed, failed, `${NAME}: compared in ${((Date.now() - t0) / 1000).toFixed(1)} s; details in ${workdir}`);
}

main().catch((e) => finish(0, 1, `${NAME}: FAIL: ${e.stack ?? e}`));

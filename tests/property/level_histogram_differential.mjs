#!/usr/bin/env node
// Property test of IS NULL / IS NOT NULL proven from definition level histograms alone: random
// files with a nested struct (s {a, b, t {u}}) and a flat column x, NULL at every level in
// random patterns (none, all, runs, blocks, a few rows), written by parquet-wasm (arrow-rs,
// chunk or page statistics) or by `pqsift convert` (random row groups and pages, with or
// without a page index) — both write SizeStatistics and column index histograms — and then
// stripped of every null count (strip_null_counts.mjs: Statistics.null_count and the column
// indexes' null_counts), so only the histograms tell where the NULLs are. For each random
// predicate over the leaves (IS [NOT] NULL, comparisons, AND / OR / NOT):
//   pqsift scan FILE --where P --select id    (pruned, with --stats-json)
//   the same with --no-prune
//   DuckDB: SELECT id FROM read_parquet(FILE) WHERE P ORDER BY id
// must all be the same ids. `s.a IS NULL` is TRUE where s is NULL (DuckDB's semantics).
//
//   node tests/property/level_histogram_differential.mjs --pqsift PATH [--seed S]
//        [--datasets FILES] [--cases-per-dataset K] [--workdir D] [--min-pruned-share X]
//
// --min-pruned-share X fails the run when fewer than X of the cases whose predicate is a single
// IS [NOT] NULL pruned rows (row groups or pages: only the histograms can prove those), so a
// proof that stopped working is noticed. The last line is `level_histogram: PASS|FAIL`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CommandPool } from '../lib/command_pool.mjs';
import { startHarness } from './harness.mjs';
import { Rng, hash32 } from './generate.mjs';
import { stripNullCounts } from './strip_null_counts.mjs';

const NAME = 'level_histogram';
const { args, workdir, con, query } = await startHarness({
  name: NAME,
  defaults: { seed: '1', datasets: 12, casesPerDataset: 25, minPrunedShare: 0 },
  threshold: ['--min-pruned-share', 'minPrunedShare'],
  workdirPrefix: 'pqsift-levels',
});
const here = path.dirname(fileURLToPath(import.meta.url));
const pw = await import(pathToFileURL(path.resolve(here, '../../tools/peers/node_modules/parquet-wasm/node/parquet_wasm.js')));

const pool = new CommandPool(2);
async function pqsift(argv) {
  const r = await pool.run([args.pqsift, ...argv]);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// A value or NULL by a pattern over the row number i, so whole row groups and pages are
// without NULLs, or NULL only, or mixed.
function nullable(rng, sql, type, rows, tag) {
  const nul = type ? `NULL::${type}` : 'NULL';
  const mode = rng.weighted([[4, 'none'], [1, 'all'], [3, 'runs'], [2, 'blocks'], [2, 'few'], [1, 'tail']]);
  const k = rng.pick([50, 300, 1000, 2500]);
  const cond = {
    none: 'FALSE',
    all: 'TRUE',
    runs: `(i // ${k}) % 3 = 0`,
    blocks: `(i // ${k}) % 2 = 1`,
    few: `hash(i, '${tag}') % 1000 < ${rng.pick([1, 20])}`,
    tail: `i >= ${Math.floor(rows * rng.pick([0.5, 0.9]))}`,
  }[mode];
  return { mode: mode === 'runs' || mode === 'blocks' ? `${mode} of ${k}` : mode, sql: `CASE WHEN ${cond} THEN ${nul} ELSE ${sql} END` };
}

async function makeFile(index) {
  const rng = new Rng(hash32(args.seed, 'levels', index));
  const rows = rng.weighted([[1, rng.int(1, 100)], [6, rng.int(500, 6000)], [2, rng.int(6000, 20000)]]);
  const u = nullable(rng, '(i % 97)::INTEGER', 'INTEGER', rows, 'u');
  const t = nullable(rng, `{'u': ${u.sql}}`, null, rows, 't');
  const a = nullable(rng, '(i * 7 % 1000)::INTEGER', 'INTEGER', rows, 'a');
  const b = nullable(rng, "chr(97 + (i % 26)::INTEGER)", 'VARCHAR', rows, 'b');
  const s = nullable(rng, `{'a': ${a.sql}, 'b': ${b.sql}, 't': ${t.sql}}`, null, rows, 's');
  const x = nullable(rng, '(i % 50)::INTEGER', 'INTEGER', rows, 'x');
  const sql = `SELECT i::BIGINT AS id, ${x.sql} AS x, ${s.sql} AS s FROM range(${rows}) t(i)`;
  const src = path.join(workdir, `f${index}.src.parquet`);
  const file = path.join(workdir, `f${index}.parquet`);
  await con.run(`COPY (${sql}) TO '${src}' (FORMAT parquet, COMPRESSION uncompressed)`);
  let writer;
  if (rng.chance(0.5)) {
    const o = { statistics: rng.pick(['Page', 'Chunk']), rowGroup: rng.pick([100, 333, 1000, 2048, 5000]), page: rng.pick([null, 256, 2048]) };
    writer = `parquet-wasm ${JSON.stringify(o)}`;
    const table = pw.readParquet(new Uint8Array(fs.readFileSync(src)));
    let p = new pw.WriterPropertiesBuilder().setStatisticsEnabled(pw.EnabledStatistics[o.statistics]).setMaxRowGroupSize(o.rowGroup);
    if (o.page) p = p.setDataPageSizeLimit(o.page);
    fs.writeFileSync(`${file}.full`, pw.writeParquet(table, p.build()));
  } else {
    const argv = ['convert', src, `${file}.full`, '--row-group-rows', String(rng.pick([100, 500, 2000, 100000])),
                  '--page-rows', String(rng.pick([7, 100, 1000]))];
    if (rng.chance(0.3)) argv.push('--no-page-index');
    writer = `pqsift ${argv.slice(3).join(' ')}`;
    const r = await pqsift(argv);
    if (r.code !== 0) throw new Error(`convert failed: ${r.stderr}`);
  }
  fs.writeFileSync(file, stripNullCounts(fs.readFileSync(`${file}.full`)));
  fs.rmSync(src);
  return { file, rows, rng, writer, nulls: `s: ${s.mode}, s.a: ${a.mode}, s.b: ${b.mode}, s.t: ${t.mode}, s.t.u: ${u.mode}, x: ${x.mode}` };
}

const LEAVES = ['s.a', 's.b', 's.t.u', 'x'];
function nullAtom(rng) { return `${rng.pick(LEAVES)} IS ${rng.chance(0.5) ? 'NOT ' : ''}NULL`; }
function atom(rng) {
  switch (rng.int(0, 5)) {
    case 0: return `s.a > ${rng.int(0, 1000)}`;
    case 1: return `s.t.u < ${rng.int(0, 97)}`;
    case 2: return `x = ${rng.int(0, 49)}`;
    case 3: return `s.b = '${String.fromCharCode(97 + rng.int(0, 25))}'`;
    default: return nullAtom(rng);
  }
}
function predicate(rng) {
  switch (rng.int(0, 6)) {
    case 0: case 1: case 2: return { where: nullAtom(rng), single: true };
    case 3: return { where: `${nullAtom(rng)} AND ${atom(rng)}` };
    case 4: return { where: `(${nullAtom(rng)} OR ${atom(rng)})` };
    case 5: return { where: `NOT (${nullAtom(rng)}) AND ${nullAtom(rng)}` };
    default: return { where: `${atom(rng)} AND (${nullAtom(rng)} OR NOT ${atom(rng)})` };
  }
}

const ids = (out) => (out.trim() === '' ? [] : out.trim().split('\n').map((l) => String(JSON.parse(l).id)));
let cases = 0, failures = 0, single = 0, singlePruned = 0;
const start = Date.now();
const fail = (msg) => { failures++; process.stdout.write(`FAIL ${msg}\n`); };
for (let f = 0; f < args.datasets && failures < 10; f++) {
  const spec = await makeFile(f);
  for (let c = 0; c < args.casesPerDataset && failures < 10; c++) {
    cases++;
    const { where, single: isSingle } = predicate(spec.rng);
    const stats = path.join(workdir, 'stats.json');
    const base = ['scan', spec.file, '--where', where, '--select', 'id', '--format', 'jsonl'];
    const [pruned, unpruned] = await Promise.all([pqsift([...base, '--stats-json', stats]), pqsift([...base, '--no-prune'])]);
    const repro = `file ${f} (${spec.rows} rows, ${spec.writer}; nulls ${spec.nulls}): pqsift ${base.join(' ')}`;
    if (pruned.code !== 0 || unpruned.code !== 0) { fail(`${repro}\n  exit ${pruned.code}/${unpruned.code}: ${pruned.stderr.trim()} ${unpruned.stderr.trim()}`); continue; }
    if (pruned.stdout !== unpruned.stdout) { fail(`${repro}\n  PRUNED != UNPRUNED: ${ids(pruned.stdout).length} vs ${ids(unpruned.stdout).length} rows`); continue; }
    const duck = (await query(`SELECT id FROM read_parquet('${spec.file}') WHERE ${where} ORDER BY id`)).map((r) => String(r[0]));
    const mine = ids(pruned.stdout);
    if (mine.join(',') !== duck.join(',')) {
      fail(`${repro}\n  PQSIFT != DUCKDB: ${mine.length} vs ${duck.length} rows`);
      continue;
    }
    if (isSingle) {
      single++;
      const s = JSON.parse(fs.readFileSync(stats, 'utf8'));
      const prunedRows = (s.stages ?? []).reduce((n, x) => n + Number(x.rows_pruned ?? 0), 0);
      if (prunedRows > 0) singlePruned++;
    }
  }
  for (const suffix of ['', '.full']) fs.rmSync(`${spec.file}${suffix}`, { force: true });
}
const share = single ? singlePruned / single : 0;
process.stdout.write(`${NAME}: seed ${args.seed}: ${cases} cases over ${args.datasets} files in ${((Date.now() - start) / 1000).toFixed(1)} s, ` +
                     `failing ${failures}; ${singlePruned} of ${single} single IS [NOT] NULL cases pruned rows (${(share * 100).toFixed(1)}%)\n`);
if (failures === 0 && share < args.minPrunedShare) {
  process.stdout.write(`${NAME}: FAIL: only ${(share * 100).toFixed(1)}% of the single IS [NOT] NULL cases pruned (--min-pruned-share ${args.minPrunedShare})\n`);
  process.exit(1);
}
process.stdout.write(`${NAME}: ${failures === 0 ? 'PASS' : 'FAIL'}\n`);
process.exit(failures === 0 ? 0 : 1);

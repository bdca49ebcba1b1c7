#!/usr/bin/env node
// Property test of the virtual columns (--with-row-index, --with-filename): random datasets of
// random files (row groups of random sizes from DuckDB; some files rewritten by `pqsift
// convert` with small pages, with or without a page index, so page-level pruning runs), random
// predicates over file columns and the virtual ones, random LIMIT, --split and --order-by.
// For each case:
//   pqsift scan DIR --with-row-index --with-filename --where P --select C   (pruned)
//   the same with --no-prune                                                (unpruned)
//   DuckDB: SELECT C FROM read_parquet([files], file_row_number=true, filename=true) WHERE P
// pruned must equal unpruned byte for byte and DuckDB as a multiset; and every returned row
// must be the row at its file_row_number in a full --no-prune scan of its file (its id and v
// equal that row's). With --limit K the rows must be the first K of the unlimited scan; with
// --split the rows of all splits of a file must be the file's rows, positions unchanged.
//
//   node tests/property/virtual_columns.mjs --pqsift PATH [--seed S] [--datasets N]
//        [--cases-per-dataset K] [--workdir D] [--min-pruned-share X]
//
// --min-pruned-share X fails the run when fewer than X of the cases with a row index condition
// had a row group or file pruned by it (from --stats-json), so a stage that stopped working is
// noticed. The last line is `virtual_columns: PASS|FAIL ...`; exit 1 on FAIL.
import fs from 'node:fs';
import path from 'node:path';
import { CommandPool } from '../lib/command_pool.mjs';
import { startHarness } from './harness.mjs';
import { Rng, hash32 } from './generate.mjs';

const NAME = 'virtual_columns';
const { args, workdir, con, query } = await startHarness({
  name: NAME,
  defaults: { seed: '1', datasets: 8, casesPerDataset: 12, minPrunedShare: 0 },
  threshold: ['--min-pruned-share', 'minPrunedShare'],
  workdirPrefix: 'pqsift-virtual',
});

const pool = new CommandPool(2);
async function pqsift(argv) {
  const r = await pool.run([args.pqsift, ...argv]);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const text = (v) => (v === null || v === undefined ? 'NULL' : String(v));
const lines = (out) => (out.trim() === '' ? [] : out.trim().split('\n').map((l) => JSON.parse(l)));

async function makeDataset(index) {
  const rng = new Rng(hash32(args.seed, 'virtual', index));
  const dir = path.join(workdir, `d${index}`);
  const nfiles = rng.int(1, 5);
  const files = [];
  for (let f = 0; f < nfiles; f++) {
    const folder = path.join(dir, `day=2026-01-0${rng.int(1, 3)}`);
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `part-${f}.parquet`);
    const rows = rng.chance(0.1) ? 0 : rng.int(1, 9000);
    const rowGroup = rng.pick([100, 777, 2048, 5000]);
    // id: unique across the dataset, in file order; v: repeating, so dictionaries and statistics
    // decide some row groups; s: sometimes NULL.
    const sql = `SELECT (${f * 100000} + i)::BIGINT AS id, (hash(i, ${f}) % 50)::INTEGER AS v,
                 CASE WHEN i % 11 = 0 THEN NULL ELSE chr(97 + (i % 5)::INTEGER) END AS s
                 FROM range(${rows}) t(i)`;
    if (rng.chance(0.4)) {
      // Rewritten by pqsift with small pages (with or without a page index): page-level
      // pruning and page-sized slices.
      const tmp = `${file}.src.parquet`;
      await con.run(`COPY (${sql}) TO '${tmp}' (FORMAT parquet)`);
      const argv = ['convert', tmp, file, '--row-group-rows', String(rowGroup), '--page-rows', String(rng.pick([1, 7, 64, 500]))];
      if (rng.chance(0.3)) argv.push('--no-page-index');
      const r = await pqsift(argv);
      fs.rmSync(tmp);
      if (r.code !== 0) throw new Error(`convert failed: ${r.stderr}`);
    } else {
      await con.run(`COPY (${sql}) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${rowGroup})`);
    }
    files.push({ file, rows });
  }
  return { dir, files: files.sort((a, b) => (a.file < b.file ? -1 : 1)), rng };
}

function randomPredicate(rng, ds) {
  const maxRows = Math.max(1, ...ds.files.map((f) => f.rows));
  const pos = () => rng.int(-5, maxRows + 5);
  const a = pos();
  const rowAtoms = [
    `file_row_number BETWEEN ${a} AND ${a + rng.int(0, 300)}`, `file_row_number = ${pos()}`,
    `file_row_number < ${pos()}`, `file_row_number >= ${pos()}`, `file_row_number <> ${pos()}`,
    `file_row_number IN (${pos()}, ${pos()}, ${pos()})`, `file_row_number > ${pos()}`,
  ];
  const file = rng.pick(ds.files).file;
  const nameAtoms = [`filename = '${file}'`, `filename LIKE '%${path.basename(path.dirname(file))}%'`,
                     `filename IN ('${file}', '${rng.pick(ds.files).file}')`, `filename LIKE '%part-1%'`];
  const colAtoms = [`v = ${rng.int(0, 49)}`, `v < ${rng.int(0, 50)}`, `id > ${rng.int(0, 400000)}`,
                    `s = '${rng.pick(['a', 'b', 'c'])}'`, 's IS NULL'];
  const atom = () => {
    const r = rng.int(0, 9);
    return r < 5 ? rng.pick(rowAtoms) : r < 7 ? rng.pick(nameAtoms) : rng.pick(colAtoms);
  };
  const form = rng.int(0, 5);
  if (form === 0) return atom();
  if (form === 1 || form === 2) return `${atom()} AND ${atom()}`;
  if (form === 3) return `(${atom()} OR ${atom()})`;
  if (form === 4) return `NOT (${atom()}) AND ${atom()}`;
  return `${atom()} AND (${atom()} OR NOT ${atom()})`;
}

let cases = 0, compared = 0, failures = 0, rowIndexCases = 0, rowIndexPruned = 0, splitChecks = 0;
const start = Date.now();
const fail = (msg) => { failures++; process.stdout.write(`FAIL ${msg}\n`); };
const V = ['--with-row-index', '--with-filename'];
for (let d = 0; d < args.datasets && failures < 10; d++) {
  const ds = await makeDataset(d);
  const rng = ds.rng;
  // Every file's rows by position, from a full scan without pruning (its own positions checked).
  const byFile = new Map();
  {
    const full = await pqsift(['scan', ds.dir, ...V, '--no-prune', '--select', 'filename,file_row_number,id,v', '--format', 'jsonl']);
    if (full.code !== 0) { fail(`full scan of ${ds.dir}: ${full.stderr}`); continue; }
    for (const r of lines(full.stdout)) {
      if (!byFile.has(r.filename)) byFile.set(r.filename, []);
      const rows = byFile.get(r.filename);
      if (r.file_row_number !== rows.length) { fail(`full scan of ${ds.dir}: ${r.filename} row ${rows.length} says file_row_number ${r.file_row_number}`); break; }
      rows.push(r);
    }
  }
  const fileList = ds.files.map((f) => `'${f.file}'`).join(', ');
  await con.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM read_parquet([${fileList}], file_row_number=true, filename=true, hive_partitioning=false)`);
  for (let c = 0; c < args.casesPerDataset && failures < 10; c++) {
    cases++;
    const where = randomPredicate(rng, ds);
    const cols = rng.shuffle(['filename', 'file_row_number', 'id', 'v']).slice(0, rng.int(1, 4));
    for (const must of ['filename', 'file_row_number', 'id']) if (!cols.includes(must)) cols.push(must);
    const stats = path.join(workdir, 'stats.json');
    const base = ['scan', ds.dir, ...V, '--where', where, '--select', cols.join(','), '--format', 'jsonl'];
    const slice = rng.chance(0.5) ? ['--slice-rows', String(rng.pick([50, 333, 1000]))] : [];
    const [pruned, unpruned] = await Promise.all([
      pqsift([...base, ...slice, '--threads', String(rng.int(1, 2)), '--stats-json', stats]),
      pqsift([...base, '--no-prune', '--threads', '1'])]);
    const repro = `case ${d}.${c}: pqsift scan ${ds.dir} ${V.join(' ')} --where "${where}" --select ${cols.join(',')} ${slice.join(' ')}`;
    if (pruned.code !== 0 || unpruned.code !== 0) { fail(`${repro}\n  exit ${pruned.code}/${unpruned.code}: ${pruned.stderr.trim()} ${unpruned.stderr.trim()}`); continue; }
    if (pruned.stdout !== unpruned.stdout) { fail(`${repro}\n  PRUNED != UNPRUNED`); continue; }
    const ours = lines(pruned.stdout);
    // Each row is the row at its position in its file.
    const wrong = ours.find((r) => {
      const at = byFile.get(r.filename)?.[r.file_row_number];
      return !at || at.id !== r.id || (r.v !== undefined && at.v !== r.v);
    });
    if (wrong) { fail(`${repro}\n  row ${JSON.stringify(wrong)} is not the row at its position`); continue; }
    let duck;
    try {
      duck = (await query(`SELECT ${cols.map((x) => `CAST("${x}" AS VARCHAR)`).join(', ')} FROM t WHERE ${where}`))
        .map((row) => row.map(text).join('|')).sort();
    } catch (e) { fail(`${repro}\n  DuckDB rejects: ${String(e.message ?? e).split('\n')[0]}`); continue; }
    const mine = ours.map((r) => cols.map((x) => text(r[x])).join('|')).sort();
    if (mine.length !== duck.length || mine.some((r, i) => r !== duck[i])) {
      fail(`${repro}\n  PQSIFT != DUCKDB: ${mine.length} vs ${duck.length} rows; only pqsift ${JSON.stringify(mine.filter((r) => !duck.includes(r)).slice(0, 3))}; only duckdb ${JSON.stringify(duck.filter((r) => !mine.includes(r)).slice(0, 3))}`);
      continue;
    }
    compared++;
    if (/file_row_number/.test(where)) {
      rowIndexCases++;
      const s = JSON.parse(fs.readFileSync(stats, 'utf8'));
      const stage = (s.stages ?? []).find((x) => x.stage === 'row positions');
      if ((stage && (stage.row_groups_skipped > 0 || stage.rows_pruned > 0)) || s.files_skipped > 0) rowIndexPruned++;
    }
    // LIMIT: the first K rows of the same scan.
    const k = rng.int(0, Math.min(ours.length + 3, 50));
    const limited = await pqsift([...base, ...slice, '--limit', String(k)]);
    const first = pruned.stdout.trim() === '' ? [] : pruned.stdout.trim().split('\n').slice(0, k);
    const got = limited.stdout.trim() === '' ? [] : limited.stdout.trim().split('\n');
    if (limited.code !== 0 || got.join('\n') !== first.join('\n')) fail(`${repro} --limit ${k}\n  not the first ${k} rows (${got.length} rows): ${limited.stderr.trim()}`);
    // Top-k on the row index: DuckDB's ORDER BY filename, file_row_number DESC LIMIT K.
    if (rng.chance(0.3)) {
      const top = await pqsift(['scan', ds.dir, ...V, '--where', where, '--select', 'filename,file_row_number,id', '--format', 'jsonl',
                                '--order-by', 'filename, file_row_number DESC', '--limit', String(k)]);
      const want = (await query(`SELECT filename, file_row_number, id FROM t WHERE ${where} ORDER BY filename, file_row_number DESC LIMIT ${k}`))
        .map((row) => row.map(text).join('|'));
      const have = lines(top.stdout).map((r) => [r.filename, r.file_row_number, r.id].map(text).join('|'));
      if (top.code !== 0 || have.join('\n') !== want.join('\n')) fail(`${repro} --order-by "filename, file_row_number DESC" --limit ${k}\n  top-k differs: ${top.stderr.trim()} ${JSON.stringify(have.slice(0, 3))} vs ${JSON.stringify(want.slice(0, 3))}`);
    }
  }
  // Splits: every split of every file, with a random predicate; positions are the file's, so
  // the union of the splits' rows is the whole file's scan.
  for (const f of ds.files) {
    splitChecks++;
    const where = rng.chance(0.5) ? 'TRUE' : randomPredicate(rng, ds);
    // Half the time the splits are planned with the predicate too (pruned row groups are in no
    // split: they hold no matching row).
    const planned = rng.chance(0.5) ? [...V, '--where', where] : [];
    const listed = await pqsift(['splits', f.file, ...planned, '--target-bytes', String(rng.pick([1, 4000, 1 << 30]))]);
    const whole = await pqsift(['scan', f.file, ...V, '--where', where, '--select', 'file_row_number,id', '--format', 'jsonl']);
    if (listed.code !== 0 || whole.code !== 0) { fail(`splits of ${f.file}: ${listed.stderr}${whole.stderr}`); continue; }
    const parts = [];
    for (const split of listed.stdout.trim().split('\n').filter((x) => x)) {
      const part = await pqsift(['scan', '--split', split, ...V, '--where', where, '--select', 'file_row_number,id', '--format', 'jsonl']);
      if (part.code !== 0) { fail(`split ${split}: ${part.stderr}`); break; }
      parts.push(...(part.stdout.trim() === '' ? [] : part.stdout.trim().split('\n')));
    }
    const expected = whole.stdout.trim() === '' ? [] : whole.stdout.trim().split('\n');
    if (parts.join('\n') !== expected.join('\n')) fail(`splits of ${f.file} --where "${where}": ${parts.length} rows in the splits, ${expected.length} in the scan, or positions differ`);
  }
}
const share = rowIndexCases ? rowIndexPruned / rowIndexCases : 0;
process.stdout.write(`${NAME}: seed ${args.seed}: ${cases} cases in ${((Date.now() - start) / 1000).toFixed(1)} s; compared ${compared}, failing ${failures}; ` +
                     `${rowIndexPruned} of ${rowIndexCases} row index cases pruned (${(share * 100).toFixed(1)}%); ${splitChecks} files split\n`);
if (failures === 0 && share < args.minPrunedShare) {
  process.stdout.write(`${NAME}: FAIL: only ${(share * 100).toFixed(1)}% of the row index cases pruned (--min-pruned-share ${args.minPrunedShare})\n`);
  process.exit(1);
}
process.stdout.write(`${NAME}: ${failures === 0 ? 'PASS' : 'FAIL'}\n`);
process.exit(failures === 0 ? 0 : 1);

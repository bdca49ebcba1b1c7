#!/usr/bin/env node
// Differential property test of pruning: for random files and random predicates, the rows of
//   pqsift scan FILE --where PRED --format jsonl            (pruned)
//   pqsift scan FILE --where PRED --format jsonl --no-prune (unpruned)
//   DuckDB: SELECT cols FROM read_parquet(FILE) WHERE PRED  (the oracle, in process)
// must be the same multiset (canonical values, tests/interop/compare_scan.mjs), and pruned must
// equal unpruned byte for byte (same rows in the same file order).
//
//   node tests/property/differential.mjs --pqsift PATH [--cases N] [--files F] [--seed S]
//        [--workdir D] [--keep] [--strict] [--only K[.J],...] [--max-mismatches M]
//        [--min-pruned-share X] [--min-page-pruned-share X] [--min-dictionary-share X] [--in-process]
//        [--bloom-share X] [--min-bloom-pruned-cases N]
//
// --cases N cases over --files F random files (ceil(N/F) predicates per file); everything is a
// function of --seed. --only K re-runs file K (K.J: its case J) of the same seed/files/cases.
// Cases DuckDB rejects are dropped and counted. Cases pqsift rejects (exit 1, one stderr line)
// while DuckDB accepts are counted and the first few printed; they fail the run only with
// --strict. A crash, a mismatch, or pruned and unpruned disagreeing fail it always, and print a
// reproducer (the file is kept, with its description, under D/files/; all reproducers go to
// D/reproducers.txt). The run stops after M mismatching cases (default 10).
// --min-pruned-share X fails the run when fewer than X (0..1) of the compared cases skipped a row
// group (read from --stats-json), so a pqsift that silently stopped pruning is noticed;
// --min-page-pruned-share X the same for cases that left pages unfetched by the page index;
// --min-dictionary-share X for cases where the dictionary stage skipped or fully matched a row
// group (`stages` of --stats-json).
// --bloom-share X rewrites that share of the files (those without a struct column) with
// `pqsift convert --bloom-filter` on every non-boolean column (smaller row groups, a random fpp),
// so the bloom-filter stage has filters of every type to prune with (DuckDB-written files carry
// some already, on dictionary columns); --min-bloom-pruned-cases N fails the run when fewer
// cases than N had a row group skipped by that stage (from --stats-json "stages").
// --encrypt-share X rewrites that share of the files (those without a struct column) twice with
// `pqsift convert`, from the same input with the same random layout (row groups, pages, bloom
// filters): a plaintext copy, which becomes the file under test, and a copy with Parquet modular
// encryption under random options (encrypted or signed plaintext footer, every column under the
// footer key or each column under its own key, the footer key or none, GCM or GCM_CTR, an AAD
// prefix stored, withheld or none, keys by flags or by key metadata in a --keys file). Every
// case on such a file also runs the pruned scan on the encrypted copy with its keys, which must
// print the same bytes as the plaintext one and make the same plan (row groups and pages read,
// what each stage skipped); --min-encrypted-cases N fails the run with fewer such cases.
// --in-process: PATH is a .mjs module exporting run(argv) (the stand-in of selftest.mjs), called
// in this process instead of spawned (thousands of node start-ups are too slow for a self-test).
// --url-base URL: the pruned runs read each file as URL/<its path under the workdir> (a server
// serving the workdir there, tests/remote/differential_http.py: over HTTP, with faults).
// The last line is `property_differential: PASS|FAIL ...`; exit 1 on FAIL.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CommandPool } from '../lib/command_pool.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const peers = path.join(repo, 'tools/peers');
const NAME = 'property_differential';

function parseArgs(argv) {
  const a = { cases: 3000, files: 60, seed: 1, keep: false, strict: false, only: null, maxMismatches: 10,
              minPrunedShare: 0, minPagePrunedShare: 0, minDictionaryShare: 0, inProcess: false, maxShown: 5, bloomShare: 0,
              minBloomPrunedCases: 0, layoutShare: 0, maxSliceRows: 0, encryptShare: 0, minEncryptedCases: 0 };
  for (let i = 2; i < argv.length; i++) {
    const x = argv[i];
    const val = () => { if (i + 1 >= argv.length) usage(`${x} needs a value`); return argv[++i]; };
    if (x === '--pqsift') a.pqsift = val();
    else if (x === '--cases') a.cases = Number(val());
    else if (x === '--files') a.files = Number(val());
    else if (x === '--seed') a.seed = val();
    else if (x === '--workdir') a.workdir = val();
    else if (x === '--url-base') a.urlBase = val();
    else if (x === '--keep') a.keep = true;
    else if (x === '--strict') a.strict = true;
    else if (x === '--only') a.only = val().split(',').map((s) => s.split('.').map(Number));
    else if (x === '--max-mismatches') a.maxMismatches = Number(val());
    else if (x === '--min-pruned-share') a.minPrunedShare = Number(val());
    else if (x === '--min-page-pruned-share') a.minPagePrunedShare = Number(val());
    else if (x === '--min-dictionary-share') a.minDictionaryShare = Number(val());
    else if (x === '--in-process') a.inProcess = true;
    else if (x === '--bloom-share') a.bloomShare = Number(val());
    else if (x === '--min-bloom-pruned-cases') a.minBloomPrunedCases = Number(val());
    else if (x === '--max-shown') a.maxShown = Number(val());
    else if (x === '--layout-share') a.layoutShare = Number(val());
    else if (x === '--slice-rows') a.maxSliceRows = Number(val());
    else if (x === '--encrypt-share') a.encryptShare = Number(val());
    else if (x === '--min-encrypted-cases') a.minEncryptedCases = Number(val());
    else usage(`unknown argument ${x}`);
  }
  if (!a.pqsift) usage('--pqsift is required');
  if (!(a.cases > 0) || !(a.files > 0)) usage('--cases and --files must be positive');
  a.workdir = path.resolve(a.workdir ?? path.join(process.env.TMPDIR ?? '/tmp', `pqsift-property-${a.seed}`));
  a.perFile = Math.ceil(a.cases / a.files);
  return a;
}
function usage(why) {
  process.stderr.write(`${NAME}: ${why}\nusage: node tests/property/differential.mjs --pqsift PATH [--cases N] [--files F] ` +
                       '[--seed S] [--workdir D] [--keep] [--strict] [--only K[.J],...] [--max-mismatches M] ' +
                       '[--min-pruned-share X] [--min-page-pruned-share X] [--min-dictionary-share X] [--in-process] [--bloom-share X] ' +
                       '[--min-bloom-pruned-cases N] [--encrypt-share X] [--min-encrypted-cases N]\n');
  process.exit(2);
}

const args = parseArgs(process.argv);
const missing = ['@duckdb/node-api', 'nodejs-polars', 'parquet-wasm']
  .filter((p) => !fs.existsSync(path.join(peers, 'node_modules', p, 'package.json')));
if (missing.length) {
  process.stdout.write(`${NAME}: FAIL: ${path.join(peers, 'node_modules')} lacks ${missing.join(', ')}; run scripts/setup\n`);
  process.exit(1);
}
const pqsift = path.resolve(args.pqsift);
if (!fs.existsSync(pqsift)) {
  process.stdout.write(`${NAME}: FAIL: pqsift binary not found: ${pqsift}\n`);
  process.exit(1);
}

const gen = await import(pathToFileURL(path.join(here, 'generate.mjs')));
const cmp = await import(pathToFileURL(path.resolve(here, '../interop/compare_scan.mjs')));
const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js')));
const inProcess = args.inProcess ? await import(pathToFileURL(pqsift)) : null;

const filesDir = path.join(args.workdir, 'files');
const outDir = path.join(args.workdir, 'out');
fs.rmSync(args.workdir, { recursive: true, force: true });
fs.mkdirSync(filesDir, { recursive: true });
fs.mkdirSync(outDir, { recursive: true });
const reproPath = path.join(args.workdir, 'reproducers.txt');
fs.writeFileSync(reproPath, '');

const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
await con.run('SET threads = 1');
await con.run(`SET TimeZone = 'UTC'`);
await con.run('SET preserve_insertion_order = true');

// ---------------------------------------------------------------------------------------------
// Running pqsift
// ---------------------------------------------------------------------------------------------

// The pqsift runs go through a pool of small workers (tests/lib/command_pool.mjs): spawning from
// this process, which holds DuckDB, costs more than most runs take.
const pool = inProcess ? null : new CommandPool(2);
function runPqsift(argv, timeoutMs = 120000) {
  if (inProcess) return inProcess.run(argv);
  return pool.run([pqsift, ...argv], timeoutMs);
}

function describeRun(r) {
  if (r.timedOut) return 'timed out (hang?)';
  if (r.error) return `could not run: ${r.error}`;
  if (r.signal) return `killed by ${r.signal} (crash)`;
  const err = r.stderr.trim().split('\n').slice(0, 3).join(' | ').slice(0, 300);
  return `exit ${r.status}${err ? `: ${err}` : ''}`;
}
// An error is exit 1 (a file or the system failed) or 2 (a usage error: a bad --where, or an
// evaluation error such as integer overflow) with one stderr line "pqsift: ..." (README.md).
const isCleanError = (r) => (r.status === 1 || r.status === 2) && !r.signal && !r.timedOut &&
  r.stderr.replace(/\n$/, '').split('\n').length === 1 && r.stderr.startsWith('pqsift: ');
const isOk = (r) => r.status === 0 && !r.signal && !r.timedOut;

const shq = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
const sqlPath = (p) => `'${p.replaceAll("'", "''")}'`;
const splitLines = (text) => {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

// ---------------------------------------------------------------------------------------------
// Comparing
// ---------------------------------------------------------------------------------------------

const SEP = '\u0001';

// DuckDB's rows for which `where` is TRUE. The predicate is evaluated as a projection, row by
// row, and the rows are kept here: DuckDB's filter rewrites are not part of the oracle (DuckDB
// 1.5 returns no rows for `WHERE (x = 76 OR x IS DISTINCT FROM -89)` on an all-NULL x, while
// the same expression projected is TRUE on every row).
async function duckRows(selSql, where) {
  const result = await con.run(`SELECT (${where}) AS __keep, ${selSql} FROM oracle`);
  const names = result.columnNames().slice(1);
  const descs = result.columnTypes().slice(1).map(cmp.typeDesc);
  const rows = [];
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const keep = chunk.getColumnVector(0);
    const vectors = names.map((_, c) => chunk.getColumnVector(c + 1));
    for (let r = 0; r < chunk.rowCount; r++) {
      if (keep.getItem(r) === true) rows.push(vectors.map((v, c) => cmp.canonDuck(descs[c], v.getItem(r))).join(SEP));
    }
  }
  return { names, descs, rows };
}

// pqsift's JSON Lines -> canonical rows, or { problem } when a line is not one JSON object with
// exactly the expected keys.
function oursRows(lines, names, descs) {
  const rows = [];
  for (const [r, line] of lines.entries()) {
    let obj;
    try {
      obj = cmp.parseJsonLine(line);
    } catch (e) {
      return { problem: `line ${r + 1} is not JSON (${e.message}): ${line.slice(0, 200)}` };
    }
    if (!(obj instanceof cmp.JObj)) return { problem: `line ${r + 1} is not a JSON object: ${line.slice(0, 200)}` };
    const keys = obj.members.map((m) => m[0]);
    if (keys.length !== names.length || keys.some((k, c) => k !== names[c])) {
      return { problem: `line ${r + 1} has keys ${JSON.stringify(keys)}, expected ${JSON.stringify(names)}` };
    }
    rows.push(obj.members.map((m, c) => cmp.canonOurs(descs[c], m[1])).join(SEP));
  }
  return { rows };
}

// Multiset difference: { onlyA, onlyB } (each sorted, with repetitions).
function multisetDiff(a, b) {
  const sa = [...a].sort();
  const sb = [...b].sort();
  const onlyA = [];
  const onlyB = [];
  let i = 0;
  let j = 0;
  while (i < sa.length || j < sb.length) {
    if (j >= sb.length || (i < sa.length && sa[i] < sb[j])) onlyA.push(sa[i++]);
    else if (i >= sa.length || sb[j] < sa[i]) onlyB.push(sb[j++]);
    else { i++; j++; }
  }
  return { onlyA, onlyB };
}
const showRow = (names, row) => `{${row.split(SEP).map((v, c) => `${names[c]}: ${v}`).join(', ')}}`;

// ---------------------------------------------------------------------------------------------
// Counters and reporting
// ---------------------------------------------------------------------------------------------

const totals = {
  cases: 0, compared: 0, failures: 0, duckRejects: 0, pqsiftRejects: 0, rowsCompared: 0, statsCases: 0,
  prunedCases: 0, rgTotal: 0, rgRead: 0, statsInconsistent: 0, emptyResults: 0, files: 0, rowGroups: 0,
  oneSidedErrors: 0, fullyMatchedCases: 0, pagePrunedCases: 0, pagesNotFetchedCases: 0, bloomPrunedCases: 0, dictionaryCases: 0,
  pageBoundCases: 0, slicedCases: 0, layoutFiles: 0, encryptedFiles: 0, encryptedCases: 0, encryptedPrunedCases: 0,
  msWrite: 0, msDuck: 0, msPqsift: 0, msCompare: 0,
};
const duckRejectSamples = new Map();
const pqsiftRejectSamples = [];
const statsSamples = [];
const keepFiles = new Set();

function reproducer(c, kind, details) {
  const { spec, file } = c;
  const cols = spec.columns.map((col) => `    ${col.name} ${col.type} (order ${col.order}, nulls ${col.nulls})`).join('\n');
  const lines = [
    `=== ${kind}: case ${spec.index}.${c.caseIndex} (seed ${args.seed})`,
    `file: ${file}  (kept; description: ${file.replace(/\.parquet$/, '.json')})`,
    `  writer ${spec.writer} ${JSON.stringify(spec.options)}, ${spec.rows} rows, ${spec.rowGroups.length} row groups [${spec.rowGroups.slice(0, 20).join(', ')}${spec.rowGroups.length > 20 ? ', ...' : ''}]`,
    `  columns:\n${cols}`,
    `predicate: ${c.where}`,
    `select: ${c.select ? c.select.join(',') : '(all columns)'}`,
    'commands:',
    `  ${[pqsift, ...c.prunedArgv].map(shq).join(' ')}`,
    `  ${[pqsift, ...c.unprunedArgv].map(shq).join(' ')}`,
    ...(c.encryptedArgv ? [`  ${[pqsift, ...c.encryptedArgv].map(shq).join(' ')}`,
                           `  encrypted copy: ${spec.encrypted.argv.map(shq).join(' ')}`] : []),
    `  duckdb -c ${shq(`SET TimeZone='UTC'; ${c.sql}`)}`,
    ...details.map((d) => `  ${d}`),
    `rerun: node tests/property/differential.mjs --pqsift ${shq(pqsift)} --seed ${args.seed} --files ${args.files} ` +
      `--cases ${args.cases} --only ${spec.index}.${c.caseIndex}${args.inProcess ? ' --in-process' : ''}` +
      `${args.bloomShare ? ` --bloom-share ${args.bloomShare}` : ''}`,
    '',
  ];
  const text = lines.join('\n');
  process.stdout.write(text + '\n');
  fs.appendFileSync(reproPath, text + '\n');
  keepFiles.add(spec.index);
}

function fail(c, kind, details) {
  totals.failures++;
  reproducer(c, kind, details);
}

// ---------------------------------------------------------------------------------------------
// One case
// ---------------------------------------------------------------------------------------------

async function runCase(c, slot) {
  totals.cases++;
  const statsPath = path.join(outDir, `stats${slot}.json`);
  fs.rmSync(statsPath, { force: true });
  const sel = c.select ? ['--select', c.select.join(',')] : [];
  // The two-thread pruned runs read only the footer at open, so column chunks are fetched (and
  // the pages the offset index rules out left unfetched) even in files the tail read would hold.
  const tail = c.threads === 2 ? ['--footer-read-bytes', '8'] : [];
  // Small slices (--slice-rows): a row group cut into many, so column readers are handed from
  // slice to slice inside pages (a page is decompressed once however many slices it spans).
  const slices = c.sliceRows > 0 ? ['--slice-rows', String(c.sliceRows)] : [];
  // The page-header stage walks chunks of any size (the files here are small), and chunks
  // without an offset index get their page locations from their headers whatever their size.
  if (c.sliceRows > 0) slices.push('--page-headers-min-bytes', '0', '--page-locations-min-bytes', '0');
  // --url-base: the pruned run reads the file over HTTP (the workdir served there), the unpruned
  // run and DuckDB read it locally.
  const prunedFile = args.urlBase ? `${args.urlBase}/${path.relative(args.workdir, c.file)}` : c.file;
  c.prunedArgv = ['scan', prunedFile, '--where', c.where, '--format', 'jsonl', ...sel, '--threads', String(c.threads),
                  ...tail, ...slices, '--stats-json', statsPath];
  c.unprunedArgv = ['scan', c.file, '--where', c.where, '--format', 'jsonl', ...sel, '--no-prune', '--threads', '1'];
  const selSql = c.select ? c.select.map((p) => (p.includes('.') ? `${p} AS "${p}"` : p)).join(', ') : '*';
  // For the reproducer: the oracle's query (the rows whose keep is true), on the file.
  c.sql = `SELECT (${c.duckWhere ?? c.where}) AS keep, ${selSql} FROM read_parquet(${sqlPath(c.file)})`;

  // --encrypt-share: the same pruned run on the encrypted copy, with its keys.
  const encStatsPath = path.join(outDir, `stats${slot}.enc.json`);
  if (c.spec.encrypted) {
    fs.rmSync(encStatsPath, { force: true });
    // Always with a tail read of 8 bytes: how many pages a tail read holds depends on the file's
    // size, which encryption changes, so pages_total and pages_not_fetched are compared only
    // when the plaintext run read 8 bytes too (its two-thread runs).
    c.encryptedArgv = ['scan', c.spec.encrypted.file, ...c.spec.encrypted.keys, ...c.prunedArgv.slice(2, -2),
                       ...(tail.length ? [] : ['--footer-read-bytes', '8']), '--stats-json', encStatsPath];
  }

  const t0 = performance.now();
  const timed = (p) => p.then((r) => { totals.msPqsift += performance.now() - t0; return r; });
  const pendingPruned = timed(runPqsift(c.prunedArgv));
  const pendingUnpruned = timed(runPqsift(c.unprunedArgv));
  const pendingEncrypted = c.encryptedArgv ? runPqsift(c.encryptedArgv) : null;
  let duck;
  try {
    // The same query on the file loaded once into a table: DuckDB's own Parquet reader (and its
    // filter pushdown) is then out of the oracle, and each query is cheaper.
    duck = await duckRows(selSql, c.duckWhere ?? c.where);
  } catch (e) {
    duck = { error: e.message.split('\n')[0] };
  }
  totals.msDuck += performance.now() - t0;
  const [pruned, unpruned, encrypted] = await Promise.all([pendingPruned, pendingUnpruned, pendingEncrypted]);
  const t1 = performance.now();
  try {
    await checkCase(c, duck, pruned, unpruned, statsPath);
    if (encrypted) checkEncrypted(c, pruned, encrypted, statsPath, encStatsPath);
  } finally {
    totals.msCompare += performance.now() - t1;
  }
}

async function checkCase(c, duck, pruned, unpruned, statsPath) {

  if (duck.error) {
    totals.duckRejects++;
    const key = duck.error.replace(/\d+/g, 'N').slice(0, 100);
    if (!duckRejectSamples.has(key)) duckRejectSamples.set(key, `${duck.error.slice(0, 200)}  [WHERE ${c.where.slice(0, 200)}]`);
    return;
  }
  const runs = [['pruned', pruned], ['unpruned', unpruned]];
  for (const [label, r] of runs) {
    if (!isOk(r) && !isCleanError(r)) {
      fail(c, 'CRASH OR BAD EXIT', [`${label} run: ${describeRun(r)}`]);
      return;
    }
  }
  if (!isOk(pruned) || !isOk(unpruned)) {
    // An evaluation error (integer overflow) may depend on which rows are evaluated, so only one
    // run may hit it: information, like a rejection, and the run that answered is still checked.
    const failing = runs.filter(([, r]) => !isOk(r));
    const only = failing.length === 1 ? ` (only the ${failing[0][0]} run)` : '';
    totals.pqsiftRejects++;
    if (only) totals.oneSidedErrors++;
    const [, r] = failing[0];
    if (pqsiftRejectSamples.length < 200) {
      pqsiftRejectSamples.push(`exit ${r.status}${only}: ${r.stderr.trim().slice(0, 200)}  [case ${c.spec.index}.${c.caseIndex}: WHERE ${c.where.slice(0, 300)}]`);
    }
    if (args.strict) fail(c, `PQSIFT REJECTS WHAT DUCKDB ACCEPTS${only} (--strict)`, runs.map(([l, x]) => `${l}: ${describeRun(x)}`));
    if (!only) return;
  }
  totals.compared++;
  const problems = [];
  // 1. pruned == unpruned, byte for byte: same rows, same file order.
  const pLines = splitLines(isOk(pruned) ? pruned.stdout : unpruned.stdout);
  const uLines = splitLines(isOk(unpruned) ? unpruned.stdout : pruned.stdout);
  if (isOk(pruned) && isOk(unpruned) && pruned.stdout !== unpruned.stdout) {
    const first = pLines.findIndex((l, k) => l !== uLines[k]);
    const at = first < 0 ? Math.min(pLines.length, uLines.length) : first;
    problems.push(`PRUNED != UNPRUNED: ${pLines.length} vs ${uLines.length} lines; first difference at line ${at + 1}:`,
                  `  pruned:   ${pLines[at]?.slice(0, 300) ?? '(end of output)'}`,
                  `  unpruned: ${uLines[at]?.slice(0, 300) ?? '(end of output)'}`);
  }
  // 2. each against DuckDB, as multisets of canonical rows.
  const pRows = oursRows(pLines, duck.names, duck.descs);
  const uRows = pLines.join('\n') === uLines.join('\n') ? pRows : oursRows(uLines, duck.names, duck.descs);
  for (const [label, ours] of [['pruned', pRows], ['unpruned', uRows]]) {
    if (label === 'unpruned' && uRows === pRows) break;
    if (ours.problem) { problems.push(`${label}: ${ours.problem}`); continue; }
    const d = multisetDiff(ours.rows, duck.rows);
    if (d.onlyA.length || d.onlyB.length) {
      const who = uRows === pRows ? 'PQSIFT (PRUNED = UNPRUNED)' : label.toUpperCase();
      problems.push(`${who} != DUCKDB: pqsift ${ours.rows.length} rows, duckdb ${duck.rows.length}; ` +
                    `${d.onlyA.length} only in pqsift, ${d.onlyB.length} only in duckdb`);
      for (const r of d.onlyA.slice(0, args.maxShown)) problems.push(`  only in pqsift ${label}: ${showRow(duck.names, r)}`);
      for (const r of d.onlyB.slice(0, args.maxShown)) problems.push(`  only in duckdb:      ${showRow(duck.names, r)}`);
    }
  }
  totals.rowsCompared += duck.rows.length;
  if (duck.rows.length === 0) totals.emptyResults++;
  // 3. pruning evidence (and the counters' own consistency).
  if (isOk(pruned) && fs.existsSync(statsPath)) {
    try {
      const s = JSON.parse(fs.readFileSync(statsPath, 'utf8'));
      const total = Number(s.row_groups_total ?? s.row_groups);
      const read = Number(s.row_groups_read);
      if (Number.isFinite(total) && Number.isFinite(read)) {
        totals.statsCases++;
        totals.rgTotal += total;
        totals.rgRead += read;
        if (read < total) totals.prunedCases++;
        // The mirror proof (rows returned without evaluating the filter) and page pruning, when
        // the scanner reports them.
        if (Number(s.row_groups_fully_matched) > 0) totals.fullyMatchedCases++;
        if (Number(s.pages_read) < Number(s.pages_total)) totals.pagePrunedCases++;
        if (Number(s.pages_not_fetched) > 0) totals.pagesNotFetchedCases++;
        const bloom = (s.stages ?? []).find((x) => x.stage === 'bloom filter');
        if (Number(bloom?.row_groups_skipped) > 0) totals.bloomPrunedCases++;
        const dictionary = (s.stages ?? []).find((st) => st.stage === 'dictionary');
        if (dictionary && Number(dictionary.row_groups_skipped) + Number(dictionary.row_groups_fully_matched) > 0) {
          totals.dictionaryCases++;
        }
        // No page decompressed twice: at most every page of the file once (a filter column inside
        // a selected struct is read twice, for the filter and for the struct: not checked there).
        if (c.spec.pages !== undefined && s.pages_decompressed !== undefined) {
          totals.pageBoundCases++;
          if (Number(s.pages_decompressed) > c.spec.pages && !c.spec.columns.some((x) => x.type.startsWith('STRUCT'))) {
            problems.push(`PAGES DECOMPRESSED TWICE: pages_decompressed ${s.pages_decompressed}, the file has ${c.spec.pages} pages`);
          }
        }
        const returned = s.rows_returned === undefined ? pLines.length : Number(s.rows_returned);
        if (total !== c.spec.rowGroups.length || read > total || returned !== pLines.length) {
          totals.statsInconsistent++;
          if (statsSamples.length < 5) statsSamples.push(`case ${c.spec.index}.${c.caseIndex}: ${JSON.stringify(s)} (file has ${c.spec.rowGroups.length} row groups, ${pLines.length} rows written)`);
        }
      }
    } catch (e) {
      totals.statsInconsistent++;
      if (statsSamples.length < 5) statsSamples.push(`case ${c.spec.index}.${c.caseIndex}: --stats-json is not JSON: ${e.message}`);
    }
  }
  if (problems.length) fail(c, 'MISMATCH', problems);
}

// The pruned scan of the encrypted copy against the plaintext one: the same output (or the same
// error line), and the same plan.
function checkEncrypted(c, pruned, encrypted, statsPath, encStatsPath) {
  if (!isOk(encrypted) && !isCleanError(encrypted)) {
    fail(c, 'CRASH OR BAD EXIT (encrypted copy)', [`encrypted run: ${describeRun(encrypted)}`]);
    return;
  }
  if (isOk(pruned) !== isOk(encrypted) || (!isOk(pruned) && pruned.stderr !== encrypted.stderr)) {
    fail(c, 'ENCRYPTED != PLAINTEXT', [`plaintext: ${describeRun(pruned)}`, `encrypted: ${describeRun(encrypted)}`]);
    return;
  }
  if (!isOk(pruned)) return;
  totals.encryptedCases++;
  const problems = [];
  if (pruned.stdout !== encrypted.stdout) {
    const p = splitLines(pruned.stdout);
    const e = splitLines(encrypted.stdout);
    const first = p.findIndex((l, k) => l !== e[k]);
    const at = first < 0 ? Math.min(p.length, e.length) : first;
    problems.push(`ENCRYPTED != PLAINTEXT: ${e.length} vs ${p.length} lines; first difference at line ${at + 1}:`,
                  `  encrypted: ${e[at]?.slice(0, 300) ?? '(end of output)'}`,
                  `  plaintext: ${p[at]?.slice(0, 300) ?? '(end of output)'}`);
  }
  try {
    const s = JSON.parse(fs.readFileSync(statsPath, 'utf8'));
    const t = JSON.parse(fs.readFileSync(encStatsPath, 'utf8'));
    const sameTail = c.threads === 2;
    const plan = (x) => JSON.stringify({
      row_groups_read: x.row_groups_read, row_groups_fully_matched: x.row_groups_fully_matched,
      pages_read: x.pages_read, rows_decoded: x.rows_decoded,
      ...(sameTail ? { pages_total: x.pages_total, pages_not_fetched: x.pages_not_fetched } : {}),
      stages: (x.stages ?? []).map((st) => [st.stage, st.row_groups_skipped, st.row_groups_fully_matched, st.rows_pruned]),
    });
    if (plan(s) !== plan(t)) problems.push(`PLAN DIFFERS: plaintext ${plan(s)}`, `             encrypted ${plan(t)}`);
    if (Number(t.row_groups_read) < Number(t.row_groups_total ?? t.row_groups)) totals.encryptedPrunedCases++;
  } catch (e) {
    problems.push(`--stats-json of the plaintext or encrypted run unreadable: ${e.message}`);
  }
  if (problems.length) fail(c, 'ENCRYPTED COPY', problems);
}

const hexKey = (rng, bytes) => Array.from({ length: bytes }, () => rng.int(0, 255).toString(16).padStart(2, '0')).join('');

// --encrypt-share: the plaintext and encrypted copies (see the header). spec.encrypted holds the
// encrypted copy's path, the key flags a reader needs and the convert command that wrote it.
async function withEncryptedCopy(spec, file, rng) {
  if (!rng.chance(args.encryptShare) || spec.columns.some((c) => c.type.startsWith('STRUCT'))) return;
  const layout = ['--row-group-rows', String(rng.pick([300, 1000, 4096])), '--page-rows', String(rng.pick([37, 200, 1000]))];
  const bloom = spec.columns.filter((c) => c.type !== 'BOOLEAN' && rng.chance(0.5)).map((c) => c.name);
  if (bloom.length) layout.push('--bloom-filter', bloom.join(','));
  const footerKey = hexKey(rng, rng.pick([16, 24, 32]));
  const enc = ['--encrypt-footer', footerKey];
  let keys = ['--footer-key', footerKey];
  const ids = { kf: footerKey };
  const metadata = rng.chance(0.5);
  if (metadata) enc.push('--key-metadata', 'footer:kf');
  const perColumn = rng.chance(0.6);
  const how = {};
  if (perColumn) {
    for (const [k, c] of spec.columns.entries()) {
      how[c.name] = rng.pick(['own', 'own', 'footer', 'plain']);
      if (how[c.name] === 'footer') enc.push('--encrypt-column', c.name);
      if (how[c.name] !== 'own') continue;
      const key = rng.chance(0.5) ? hexKey(rng, rng.pick([16, 24, 32])) : Buffer.from(hexKey(rng, 16), 'hex').toString('base64');
      enc.push('--encrypt-column', `${c.name}:${key}`);
      keys.push('--column-key', `${c.name}:${key}`);
      if (metadata) { enc.push('--key-metadata', `${c.name}:k${k}`); ids[`k${k}`] = key; }
    }
    // At least one encrypted column, or this is no test of them.
    if (!Object.values(how).some((h) => h !== 'plain')) enc.push('--encrypt-column', spec.columns[0].name);
  }
  const plaintextFooter = rng.chance(0.5);
  if (plaintextFooter) enc.push('--plaintext-footer');
  const ctr = rng.chance(0.5);
  if (ctr) enc.push('--ctr');
  const aad = rng.pick(['none', 'stored', 'supplied']);
  const prefix = `table_${spec.name}`;
  if (aad !== 'none') enc.push('--aad-prefix', prefix);
  if (aad === 'supplied') { enc.push('--no-aad-storage'); keys.push('--aad-prefix', prefix); }
  if (metadata) {
    // The keys by the key metadata the file stores (the footer key and each column's own key).
    const keysFile = file.replace(/\.parquet$/, '.keys.json');
    fs.writeFileSync(keysFile, JSON.stringify({ key_ids: ids, ...(aad === 'supplied' ? { aad_prefix: prefix } : {}) }) + '\n');
    keys = ['--keys', keysFile];
  }
  const plainTmp = file.replace(/\.parquet$/, '.plain.parquet');
  const encFile = file.replace(/\.parquet$/, '.enc.parquet');
  const argv = ['convert', file, encFile, ...layout, ...enc];
  for (const [out, extra] of [[plainTmp, []], [encFile, enc]]) {
    const r = await runPqsift(['convert', file, out, ...layout, ...extra]);
    if (r.status !== 0) {
      totals.failures++;
      process.stdout.write(`FAIL pqsift convert (encrypted copy) of ${spec.name}: ${describeRun(r)} ${r.stderr}\n`);
      return;
    }
  }
  fs.renameSync(plainTmp, file);
  spec.writer += '+pqsift-enc';
  spec.encrypted = { file: encFile, keys, argv: ['pqsift', ...argv], bloom: bloom.length > 0 };
  spec.options = { ...spec.options, encrypted: { layout, perColumn, how, plaintextFooter, ctr, aad, metadata } };
  totals.encryptedFiles++;
}

// --bloom-share: the file rewritten by `pqsift convert --bloom-filter` (its writer becomes
// "<writer>+pqsift-bloom"); files with a struct column stay as they are (convert writes flat
// columns only).
async function withBloomFilters(spec, file, rng) {
  if (!rng.chance(args.bloomShare) || spec.columns.some((c) => c.type.startsWith('STRUCT'))) return;
  const columns = spec.columns.filter((c) => c.type !== 'BOOLEAN').map((c) => c.name);
  if (!columns.length) return;
  const rowGroupRows = rng.pick([300, 1000, 2048]);
  const fpp = rng.pick([0.01, 0.05, 0.2]);
  const tmp = file.replace(/\.parquet$/, '.bloom.parquet');
  const r = await runPqsift(['convert', file, tmp, '--row-group-rows', String(rowGroupRows),
                             '--bloom-filter', columns.map((c) => `${c}::${fpp}`).join(',')]);
  if (r.status !== 0) {
    totals.failures++;
    process.stdout.write(`FAIL pqsift convert --bloom-filter of ${spec.name}: ${describeRun(r)} ${r.stderr}\n`);
    return;
  }
  fs.renameSync(tmp, file);
  spec.writer += '+pqsift-bloom';
  spec.options = { ...spec.options, bloom: { rowGroupRows, fpp, columns } };
}

// --layout-share: the file rewritten by `pqsift convert` with a random page layout (its writer
// becomes "<writer>+pqsift-pages"): pages of 1 row to one page per column chunk, v1 or v2, with
// or without a page index, row groups of a few hundred rows or one for the file, any codec.
async function withPageLayout(spec, file, rng) {
  if (!rng.chance(args.layoutShare)) return;
  const layout = {
    pageRows: rng.pick([1, 7, 100, 1000, 1000000]),
    rowGroupRows: rng.pick([500, 5000, 1000000]),
    compression: rng.pick(['zstd:1', 'snappy', 'none', 'gzip', 'lz4']),
    v2: rng.chance(0.5),
    pageIndex: rng.chance(0.6),
  };
  const tmp = file.replace(/\.parquet$/, '.pages.parquet');
  const argv = ['convert', file, tmp, '--row-group-rows', String(layout.rowGroupRows), '--page-rows', String(layout.pageRows),
                '--compression', layout.compression, ...(layout.v2 ? ['--data-page-v2'] : []),
                ...(layout.pageIndex ? [] : ['--no-page-index'])];
  const r = await runPqsift(argv);
  if (r.status !== 0) {
    totals.failures++;
    process.stdout.write(`FAIL pqsift ${argv.join(' ')}: ${describeRun(r)} ${r.stderr}\n`);
    return;
  }
  fs.renameSync(tmp, file);
  spec.writer += '+pqsift-pages';
  totals.layoutFiles++;
  spec.options = { ...spec.options, layout };
}

// The pages of the file (data, dictionary and index pages), from `pqsift inspect --pages --json`:
// the most any scan of it may decompress. Undefined when inspect cannot list them.
async function countPages(file) {
  const r = await runPqsift(['inspect', '--pages', '--json', file]);
  if (r.status !== 0) return undefined;
  let pages = 0;
  for (const g of JSON.parse(r.stdout).row_groups) for (const c of g.columns) pages += Number(c.num_pages ?? 0);
  return pages;
}

// ---------------------------------------------------------------------------------------------
// Main loop
// ---------------------------------------------------------------------------------------------

const started = Date.now();
const onlyFiles = args.only ? new Map(args.only.map(([f, j]) => [f, j])) : null;
let stopped = false;
for (let f = 0; f < args.files && !stopped; f++) {
  if (onlyFiles && !onlyFiles.has(f)) continue;
  const spec = gen.generateFileSpec(gen.rngFor('file', args.seed, f), f, args.seed);
  const file = path.join(filesDir, `${spec.name}.parquet`);
  const tw = performance.now();
  try {
    await gen.writeFile(con, spec, file);
  } catch (e) {
    // A writer refusing a generated table is a generator problem, not a pqsift one: report it.
    totals.failures++;
    process.stdout.write(`FAIL writing ${spec.name} with ${spec.writer}: ${e.message.split('\n')[0]}\n  sql: ${spec.sql}\n`);
    continue;
  }
  if (args.bloomShare > 0 && !inProcess) await withBloomFilters(spec, file, gen.rngFor('bloom', args.seed, f));
  if (args.layoutShare > 0 && !inProcess) await withPageLayout(spec, file, gen.rngFor('layout', args.seed, f));
  if (args.encryptShare > 0 && !inProcess) await withEncryptedCopy(spec, file, gen.rngFor('encrypt', args.seed, f));
  if (!inProcess) spec.pages = await countPages(file);
  const profile = await gen.profileFile(con, file);
  await con.run(`CREATE OR REPLACE TABLE oracle AS SELECT * FROM read_parquet(${sqlPath(file)})`);
  totals.msWrite += performance.now() - tw;
  spec.rowGroups = profile.rowGroups;
  spec.types = Object.fromEntries(profile.names.map((n, k) => [n, profile.descs[k].kind]));
  fs.writeFileSync(file.replace(/\.parquet$/, '.json'), JSON.stringify(spec, null, 2) + '\n');
  totals.files++;
  totals.rowGroups += spec.rowGroups.length;
  const before = { ...totals };
  for (let j = 0; j < args.perFile; j++) {
    const want = onlyFiles?.get(f);
    if (want !== undefined && !Number.isNaN(want) && want !== j) continue;
    const rng = gen.rngFor('case', args.seed, f, j);
    // Files with bloom filters (--bloom-share, or an encrypted copy with some): predicates lean
    // to = and IN, which the filters can decide.
    const k = gen.generateCase(rng, profile, spec.writer.endsWith('+pqsift-bloom') || spec.encrypted?.bloom ? 0.6 : 0);
    if (!k) continue;
    const c = { spec, file, caseIndex: j, where: k.where, duckWhere: k.duckWhere, select: k.select, threads: rng.pick([1, 2]) };
    if (args.maxSliceRows > 0) {
      c.sliceRows = gen.rngFor('slices', args.seed, f, j).pick([0, 1, 3, 64, 333, args.maxSliceRows]);
      if (c.sliceRows > 0) totals.slicedCases++;
    }
    await runCase(c, 0);
    if (totals.failures >= args.maxMismatches) {
      process.stdout.write(`${NAME}: stopping after ${totals.failures} failing cases (--max-mismatches)\n`);
      stopped = true;
      break;
    }
  }
  const cases = totals.cases - before.cases;
  process.stdout.write(`${spec.name}: ${spec.writer}, ${spec.rows} rows, ${spec.rowGroups.length} row groups, ` +
    `${spec.columns.map((x) => x.name).join(' ')}: ${cases} cases, ${totals.compared - before.compared} compared, ` +
    `${totals.failures - before.failures} failing, ${totals.prunedCases - before.prunedCases} pruned\n`);
}

// Files are deleted unless kept (--keep, or a failure used them).
if (!args.keep) {
  for (const name of fs.readdirSync(filesDir)) {
    const index = Number(/^f(\d+)\./.exec(name)?.[1]);
    if (!keepFiles.has(index)) fs.rmSync(path.join(filesDir, name), { force: true });
  }
}

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
const out = [];
out.push(`${NAME}: seed ${args.seed}: ${totals.files} files (${totals.rowGroups} row groups), ${totals.cases} cases in ${((Date.now() - started) / 1000).toFixed(0)} s`);
out.push(`  compared ${totals.compared} (${totals.rowsCompared} DuckDB rows, ${totals.emptyResults} empty results); ` +
         `failing ${totals.failures}; dropped ${totals.duckRejects} (DuckDB rejects); pqsift rejects ${totals.pqsiftRejects}`);
if (totals.statsCases) {
  out.push(`  pruning: ${totals.prunedCases} of ${totals.statsCases} compared cases (${pct(totals.prunedCases, totals.statsCases)}) ` +
           `skipped at least one row group; ${totals.rgTotal - totals.rgRead} of ${totals.rgTotal} row groups skipped (${pct(totals.rgTotal - totals.rgRead, totals.rgTotal)}); ` +
           `${totals.fullyMatchedCases} cases had a fully matched row group, ${totals.pagePrunedCases} skipped pages, ` +
           `${totals.pagesNotFetchedCases} left pages unfetched (page index), ${totals.bloomPrunedCases} skipped a row group by ` +
           `its bloom filters, ${totals.dictionaryCases} decided a row group by its dictionary`);
} else {
  out.push('  pruning: no --stats-json output: cannot tell whether pruning happened');
}
if (args.encryptShare > 0) {
  out.push(`  encryption: ${totals.encryptedFiles} files with an encrypted copy (--encrypt-share); ${totals.encryptedCases} cases ` +
           `compared with it (same output and plan), ${totals.encryptedPrunedCases} of them skipped a row group`);
}
out.push(`  page layouts: ${totals.layoutFiles} files rewritten by pqsift convert (--layout-share); ${totals.slicedCases} cases ` +
         `with small slices (--slice-rows); pages decompressed checked against the file's pages in ${totals.pageBoundCases} cases`);
const sec = (ms) => `${(ms / 1000).toFixed(0)} s`;
out.push(`  time: writing and profiling files ${sec(totals.msWrite)}, DuckDB ${sec(totals.msDuck)}, ` +
         `pqsift runs ${sec(totals.msPqsift / 2)} each (overlapping DuckDB), comparing ${sec(totals.msCompare)}`);
if (duckRejectSamples.size) {
  out.push(`  DuckDB rejects (kinds, first ${Math.min(8, duckRejectSamples.size)}):`);
  for (const s of [...duckRejectSamples.values()].slice(0, 8)) out.push(`    ${s}`);
}
if (pqsiftRejectSamples.length) {
  out.push(`  pqsift rejects what DuckDB accepts (${totals.oneSidedErrors} in one of the two runs only; first ${Math.min(10, pqsiftRejectSamples.length)}):`);
  for (const s of pqsiftRejectSamples.slice(0, 10)) out.push(`    ${s}`);
  fs.writeFileSync(path.join(args.workdir, 'pqsift_rejects.txt'), pqsiftRejectSamples.join('\n') + '\n');
}
if (totals.statsInconsistent) {
  out.push(`  --stats-json inconsistent with the file or the output in ${totals.statsInconsistent} cases${args.strict ? ' (a failure under --strict)' : ''}:`);
  for (const s of statsSamples) out.push(`    ${s}`);
}
const share = totals.statsCases ? totals.prunedCases / totals.statsCases : 0;
const reasons = [];
if (totals.failures) reasons.push(`${totals.failures} failing cases (reproducers in ${reproPath})`);
if (totals.compared === 0) reasons.push('no case was compared');
if (args.strict && totals.pqsiftRejects) reasons.push(`${totals.pqsiftRejects} pqsift rejects (--strict)`);
if (args.strict && totals.statsInconsistent) reasons.push(`${totals.statsInconsistent} inconsistent --stats-json (--strict)`);
if (args.minPrunedShare > 0 && share < args.minPrunedShare) {
  reasons.push(`only ${pct(totals.prunedCases, totals.statsCases)} of the cases pruned a row group (--min-pruned-share ${args.minPrunedShare})`);
}
const pageShare = totals.statsCases ? totals.pagesNotFetchedCases / totals.statsCases : 0;
if (args.minPagePrunedShare > 0 && pageShare < args.minPagePrunedShare) {
  reasons.push(`only ${pct(totals.pagesNotFetchedCases, totals.statsCases)} of the cases left pages unfetched (--min-page-pruned-share ${args.minPagePrunedShare})`);
}
if (totals.bloomPrunedCases < args.minBloomPrunedCases) {
  reasons.push(`only ${totals.bloomPrunedCases} cases skipped a row group by its bloom filters (--min-bloom-pruned-cases ${args.minBloomPrunedCases})`);
}
if (totals.encryptedCases < args.minEncryptedCases) {
  reasons.push(`only ${totals.encryptedCases} cases compared an encrypted copy (--min-encrypted-cases ${args.minEncryptedCases})`);
}
const dictionaryShare = totals.statsCases ? totals.dictionaryCases / totals.statsCases : 0;
if (args.minDictionaryShare > 0 && dictionaryShare < args.minDictionaryShare) {
  reasons.push(`only ${pct(totals.dictionaryCases, totals.statsCases)} of the cases decided a row group by its dictionary (--min-dictionary-share ${args.minDictionaryShare})`);
}
out.push(reasons.length ? `${NAME}: FAIL: ${reasons.join('; ')}` : `${NAME}: PASS`);
process.stdout.write(out.join('\n') + '\n');
process.exit(reasons.length ? 1 : 0);

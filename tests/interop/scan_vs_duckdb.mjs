#!/usr/bin/env node
// Decode-correctness oracle: `pqsift scan --format jsonl` against DuckDB's read_parquet(), value
// by value, on the files of tools/peers/make_files.mjs (DuckDB, Polars, parquet-wasm) and on
// parquet-testing ($PARQUET_TEST_DATA or ../shared/data/parquet-testing, skipped with a message
// when absent); plus self-consistency (--threads 1, --batch-size 7, --limit 5, --select), the
// *_expect.csv files, and error behaviour on malformed files and page checksums.
//
//   node tests/interop/scan_vs_duckdb.mjs --pqsift PATH --workdir DIR
//        [--only SUBSTRING[,SUBSTRING...]] [--max-shown N] [--testing DIR] [--no-testing] [--files DIR]
//
// PATH is the pqsift binary (a path ending in .mjs is run with node: see scan_selftest.mjs).
// --only keeps the files whose name contains one of the substrings; --files DIR uses the files
// make_files.mjs already wrote to DIR instead of writing them again (for scan_selftest.mjs).
// Prints one PASS/FAIL line per file and check, then exactly
//   scan_vs_duckdb: N passed, M failed
// (one count per file x check) and exits 1 when M > 0 or N == 0. Writes DIR/files/ (generated
// files), DIR/out/<file>.jsonl (pqsift's output) and DIR/mismatches.txt (every mismatch).
// What is compared, every normalisation and why, the allow-list: tests/interop/README.md.

import fs from 'node:fs';
import path from 'node:path';
import { CommandPool } from '../lib/command_pool.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const peers = path.join(repo, 'tools/peers');
const NAME = 'scan_vs_duckdb';

let passed = 0;
let failed = 0;
const report = [];
function finish(extra) {
  if (extra) process.stdout.write(extra + '\n');
  process.stdout.write(`${NAME}: ${passed} passed, ${failed} failed\n`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

// parquet-testing: $PARQUET_TEST_DATA (the checkout's data folder, as for Arrow C++ and
// arrow-rs, or the checkout itself), else ../shared/data/parquet-testing (as the C++ tests).
function defaultTesting() {
  const env = process.env.PARQUET_TEST_DATA;
  if (env) {
    const dir = path.resolve(env);
    if (fs.existsSync(path.join(dir, 'data'))) return dir;
    if (path.basename(dir) === 'data' && fs.existsSync(dir)) return path.dirname(dir);
  }
  return path.resolve(repo, '../shared/data/parquet-testing');
}

function parseArgs(argv) {
  const args = { maxShown: 10, testing: defaultTesting() };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--pqsift') args.pqsift = argv[++i];
    else if (a === '--workdir') args.workdir = argv[++i];
    else if (a === '--max-shown') args.maxShown = Number(argv[++i]);
    else if (a === '--only') args.only = argv[++i];
    else if (a === '--testing') args.testing = path.resolve(argv[++i]);
    else if (a === '--no-testing') args.testing = null;
    else if (a === '--files') args.files = path.resolve(argv[++i]);
    else { process.stderr.write(`${NAME}: unknown argument ${a}\n`); process.exit(2); }
  }
  if (!args.pqsift || !args.workdir) {
    process.stderr.write(`usage: node tests/interop/${NAME}.mjs --pqsift PATH --workdir DIR ` +
                         '[--only SUBSTRING[,...]] [--max-shown N] [--testing DIR] [--no-testing] [--files DIR]\n');
    process.exit(2);
  }
  return args;
}

const args = parseArgs(process.argv);
const needed = ['@duckdb/node-api', 'nodejs-polars', 'nodejs-polars-linux-x64-gnu', 'parquet-wasm', 'hyparquet'];
const missing = needed.filter((p) => !fs.existsSync(path.join(peers, 'node_modules', p, 'package.json')));
if (missing.length) {
  failed++;
  finish(`${NAME}: FAIL: ${path.join(peers, 'node_modules')} lacks ${missing.join(', ')}; ` +
         'run scripts/setup (it runs "npm ci" in tools/peers) and try again');
}
const pqsift = path.resolve(args.pqsift);
if (!fs.existsSync(pqsift)) { failed++; finish(`${NAME}: FAIL: pqsift binary not found: ${pqsift}`); }

const { makeFiles } = await import(pathToFileURL(path.join(peers, 'make_files.mjs')));
const { pageCensus } = await import(pathToFileURL(path.join(peers, 'page_census.mjs')));
const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js')));
const { deserializeTCompactProtocol } = await import(pathToFileURL(path.join(peers, 'node_modules/hyparquet/src/thrift.js')));
const cmp = await import(pathToFileURL(path.join(here, 'compare_scan.mjs')));
const { ALLOWLIST } = await import(pathToFileURL(path.join(here, 'scan_allowlist.mjs')));

// ---------------------------------------------------------------------------------------------
// Checks and reporting
// ---------------------------------------------------------------------------------------------

const usedAllow = new Set();
function allowed(file, kind, column) {
  const a = ALLOWLIST.find((x) => x.file === file && x.kind === kind && (column === undefined || x.column === column));
  return a;
}

function check(file, name, problems, notes = []) {
  const label = `${file} ${name}`;
  if (problems.length === 0) {
    passed++;
    process.stdout.write(`PASS ${label}${notes.length ? `  (${notes.join('; ')})` : ''}\n`);
  } else {
    failed++;
    process.stdout.write(`FAIL ${label}: ${problems.length} problem(s)\n`);
    for (const p of problems.slice(0, args.maxShown)) process.stdout.write(`  ${p}\n`);
    if (problems.length > args.maxShown) process.stdout.write(`  ... ${problems.length - args.maxShown} more in mismatches.txt\n`);
    for (const n of notes) process.stdout.write(`  note: ${n}\n`);
  }
  report.push(`== ${label}: ${problems.length ? 'FAIL' : 'PASS'}`, ...problems.map((p) => `  ${p}`), ...notes.map((n) => `  note: ${n}`));
}

// ---------------------------------------------------------------------------------------------
// Running pqsift
// ---------------------------------------------------------------------------------------------

// Runs pqsift asynchronously (several runs overlap with the JavaScript comparison work), through
// a pool of small workers: spawning from this process, which holds DuckDB, costs more than a run.
const pool = new CommandPool(2);
const runPqsift = (argv, timeoutMs = 120000) => pool.run([pqsift, ...argv], timeoutMs, { buffer: true });

function describeRun(r) {
  if (r.timedOut) return 'timed out (hang?)';
  if (r.error) return `could not run: ${r.error}`;
  if (r.signal) return `killed by ${r.signal} (crash)`;
  const err = r.stderr.trim().split('\n').slice(0, 3).join(' | ').slice(0, 400);
  return `exit ${r.status}${err ? `: ${err}` : ''}`;
}

// An error exit must be: status 1, exactly one stderr line, starting "pqsift: ", naming the file.
function errorShapeProblems(r, file) {
  const problems = [];
  if (r.timedOut || r.signal || r.error || r.status >= 128) return [describeRun(r)];
  if (r.status !== 1) problems.push(`exit status ${r.status}, expected 1`);
  const lines = r.stderr.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length !== 1) problems.push(`${lines.length} stderr lines, expected exactly 1: ${JSON.stringify(r.stderr.slice(0, 300))}`);
  if (!lines[0]?.startsWith('pqsift: ')) problems.push(`stderr does not start with "pqsift: ": ${JSON.stringify(lines[0]?.slice(0, 200))}`);
  if (!lines[0]?.includes(path.basename(file))) problems.push(`stderr does not name the file: ${JSON.stringify(lines[0]?.slice(0, 200))}`);
  return problems;
}

const splitLines = (buf) => {
  const text = buf.toString('utf8');
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

// pqsift's JSON string escaping (variant::AppendJsonString in src/variant/json.cc), for the
// keys of a projected line.
function pqsiftJsonString(s) {
  return '"' + s.replace(/["\\\u0000-\u001f]/g, (c) => {
    switch (c) {
      case '"': return '\\"';
      case '\\': return '\\\\';
      case '\n': return '\\n';
      case '\r': return '\\r';
      case '\t': return '\\t';
      case '\b': return '\\b';
      case '\f': return '\\f';
      default: return '\\u00' + c.charCodeAt(0).toString(16).padStart(2, '0');
    }
  }) + '"';
}

// ---------------------------------------------------------------------------------------------
// DuckDB
// ---------------------------------------------------------------------------------------------

const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const connection = await instance.connect();
await connection.run('SET threads = 1');
await connection.run(`SET TimeZone = 'UTC'`);
await connection.run('SET preserve_insertion_order = true');
const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;

// DuckDB's reading of the file, canonicalised value by value while streaming its chunks.
async function duckTable(file, exclude = []) {
  const columns = exclude.length ? `* EXCLUDE (${exclude.map((c) => `"${c.replaceAll('"', '""')}"`).join(', ')})` : '*';
  const result = await connection.run(`SELECT ${columns} FROM read_parquet(${sqlString(file)})`);
  const names = result.columnNames();
  const descs = result.columnTypes().map(cmp.typeDesc);
  const canon = [];
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const base = canon.length;
    for (let r = 0; r < chunk.rowCount; r++) canon.push(new Array(names.length));
    for (let c = 0; c < names.length; c++) {
      const vector = chunk.getColumnVector(c);
      for (let r = 0; r < chunk.rowCount; r++) canon[base + r][c] = cmp.canonDuck(descs[c], vector.getItem(r));
    }
  }
  return { names, descs, canon };
}

// num_rows of the footer, decoded with hyparquet's Thrift reader (not pqsift's).
async function footerRows(file) {
  try {
    const buf = fs.readFileSync(file);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const footerLength = view.getUint32(buf.length - 8, true);
    return Number(deserializeTCompactProtocol({ view, offset: buf.length - 8 - footerLength }).field_3);
  } catch (e) {
    return `unknown (${e.message})`;
  }
}

// ---------------------------------------------------------------------------------------------
// The checks of one readable file
// ---------------------------------------------------------------------------------------------

const outDir = path.join(path.resolve(args.workdir), 'out');

const tested = new Set(); // base names of the files checkFile ran on

async function checkFile(file, label, { expectCsv, crc } = {}) {
  const base = path.basename(file);
  tested.add(base);
  // The runs that need nothing from the others start together and overlap with the comparison.
  const scan = (...extra) => runPqsift(['scan', '--format', 'jsonl', ...extra, file]);
  const pending = {
    threads1: scan('--threads', '1'), batch7: scan('--batch-size', '7'), limit5: scan('--limit', '5'),
    crc: crc ? scan('--verify-crc') : null,
  };
  const run = await scan();
  const pqErr = allowed(base, 'pqsift-error');
  if (run.status !== 0 || run.signal || run.timedOut) {
    if (pqErr && !run.signal && !run.timedOut && run.status === 1 && pqErr.match.test(run.stderr)) {
      usedAllow.add(pqErr);
      const shape = errorShapeProblems(run, file);
      check(label, 'pqsift refuses (allow-listed)', shape, [`${run.stderr.trim()}`, `why: ${pqErr.why}`]);
      return;
    }
    check(label, 'decode', [`pqsift scan failed: ${describeRun(run)}`]);
    return;
  }
  fs.writeFileSync(path.join(outDir, `${base}.jsonl`), run.stdout);
  const lines = splitLines(run.stdout);
  let rows;
  try {
    rows = lines.map((l) => cmp.parseJsonLine(l));
  } catch (e) {
    check(label, 'decode', [`pqsift output is not JSON Lines: ${e.message}`]);
    return;
  }

  // rows: the footer's num_rows (read with hyparquet, not pqsift)
  const expectedRows = await footerRows(file);
  check(label, 'rows', lines.length === expectedRows ? [] : [`pqsift wrote ${lines.length} rows, the footer says ${expectedRows}`]);

  // duckdb: value by value. When DuckDB cannot read the file (allow-listed), the entry's oracle
  // says what to compare with instead: DuckDB's reading of a file with the same content, or of
  // the columns it can read (the others then checked against a twin column of the same file).
  let duck = null;
  let cmpRows = rows;
  const duckNotes = [];
  const duckErr = allowed(base, 'duckdb-error');
  try {
    duck = await duckTable(file);
  } catch (e) {
    const msg = e.message.split('\n')[0];
    if (duckErr && duckErr.match.test(e.message)) {
      usedAllow.add(duckErr);
      duckNotes.push(`DuckDB cannot read it (allow-listed: ${duckErr.why}): ${msg.slice(0, 200)}`);
      const o = duckErr.oracle ?? {};
      try {
        if (o.file) {
          duck = await duckTable(path.join(path.dirname(file), o.file));
          duckNotes.push(`compared with DuckDB's reading of ${o.file} instead`);
        } else if (o.exclude) {
          duck = await duckTable(file, o.exclude);
          duckNotes.push(`compared with DuckDB on every column but ${o.exclude.join(', ')}`);
          cmpRows = rows.map((row) => new cmp.JObj(row.members.filter((m) => !o.exclude.includes(m[0])), row.src));
        } else {
          duckNotes.push(o.twins ? 'only the twin columns are checked' : 'no other oracle: values not compared');
        }
        if (o.twins) checkTwins(label, rows, Object.entries(o.twins));
      } catch (e2) {
        duckNotes.push(`the allow-list's oracle failed: ${e2.message.split('\n')[0]}`);
        check(label, 'duckdb', duckNotes.slice(-1), duckNotes.slice(0, -1));
        duckNotes.length = 0;
      }
      if (!duck && duckNotes.length) check(label, 'duckdb', [], duckNotes);
    } else {
      check(label, 'duckdb', [`DuckDB cannot read the file: ${msg}`]);
    }
  }
  if (duck) {
    const isAllowed = (column) => !!allowed(base, 'values', column);
    const res = cmp.compareTables(duck, { rows: cmpRows }, { allowed: isAllowed });
    const problems = [...res.structural];
    const notes = [`${res.cells} values`, ...duckNotes];
    if (res.coarsened) notes.push(`${res.coarsened} timestamps compared at DuckDB's microseconds`);
    for (const c of res.counts) {
      const shown = res.mismatches.filter((m) => m.column === c.column);
      const lines2 = shown.map((m) => `${c.allowed ? 'ALLOWED ' : ''}column ${JSON.stringify(m.column)} row ${m.row}: pqsift ${m.ours.slice(0, 160)} [${m.oursCanon.slice(0, 120)}] vs duckdb [${m.duck.slice(0, 160)}]`);
      if (c.allowed) {
        const a = allowed(base, 'values', c.column);
        usedAllow.add(a);
        notes.push(`column ${c.column}: ${c.count} allow-listed difference(s): ${a.why}`, ...lines2.slice(0, 3));
        report.push(...lines2.map((l) => `  ${l}`));
      } else {
        problems.push(`column ${JSON.stringify(c.column)}: ${c.count} mismatching value(s)`, ...lines2);
      }
    }
    check(label, 'duckdb', problems, notes);
  }

  // DuckDB reads TIMESTAMP(NANOS, UTC) as microseconds (see compare_scan.mjs): where the
  // generated file has the same instants in a naive nanosecond column, the last three digits are
  // checked against it.
  const twins = SAME_INSTANTS.filter(([a, b]) => rows[0]?.get(a) !== undefined && rows[0]?.get(b) !== undefined);
  if (twins.length) checkTwins(label, rows, twins, (v) => (v === 'null' ? v : v.replace(/"$/, '+00"')));

  // expect_csv: parquet-testing's expected values
  if (expectCsv) {
    const problems = [];
    const csv = cmp.parseCsv(fs.readFileSync(expectCsv, 'utf8'));
    const header = csv[0].map((f) => f.text);
    const body = csv.slice(1);
    // The CSV headers are not always the Parquet names (" c_customer_id", names ending in ":"
    // in the file): compared with surrounding spaces and a trailing ":" removed.
    const keys = rows[0] ? rows[0].members.map((m) => m[0]) : [];
    const norm = (n) => n.trim().replace(/:$/, '');
    if (header.map(norm).join('\u0000') !== keys.map(norm).join('\u0000')) problems.push(`columns: csv ${JSON.stringify(header)}, pqsift ${JSON.stringify(keys)}`);
    if (body.length !== rows.length) problems.push(`rows: csv ${body.length}, pqsift ${rows.length}`);
    if (!duck) problems.push('no DuckDB types to read the CSV with');
    let cells = 0;
    const bad = new Map();
    for (let r = 0; duck && problems.length === 0 && r < body.length; r++) {
      for (let c = 0; c < header.length; c++) {
        cells++;
        const want = cmp.canonCsv(duck.descs[c], body[r][c] ?? { text: '', quoted: false });
        const got = cmp.canonOurs(duck.descs[c], rows[r].members[c][1]);
        if (want !== got) {
          const n = (bad.get(header[c]) ?? 0) + 1;
          bad.set(header[c], n);
          if (n <= 5) problems.push(`column ${JSON.stringify(header[c])} row ${r}: pqsift ${rows[r].raw(c).slice(0, 100)} vs csv ${JSON.stringify(body[r][c]?.text)}`);
        }
      }
    }
    check(label, `expect_csv (${path.basename(expectCsv)})`, problems, [`${cells} values`]);
  }

  // threads1 / batch7: byte-identical to the default run
  for (const [name, what] of [['threads1', '--threads 1'], ['batch7', '--batch-size 7']]) {
    const r = await pending[name];
    if (r.status !== 0 || r.signal || r.timedOut) { check(label, name, [describeRun(r)]); continue; }
    check(label, name, r.stdout.equals(run.stdout) ? [] : [firstDifference(run.stdout, r.stdout, what)]);
  }

  // verify_crc: a corrupt page checksum is an error; every other file scans the same with it
  if (crc) {
    const r = await pending.crc;
    if (crc === 'fail') {
      const problems = errorShapeProblems(r, file);
      if (!problems.length && !/crc|checksum/i.test(r.stderr)) problems.push(`the error does not mention the checksum: ${r.stderr.trim()}`);
      check(label, 'verify_crc fails', problems, [r.stderr.trim()]);
    } else {
      const problems = r.status !== 0 ? [describeRun(r)] : r.stdout.equals(run.stdout) ? [] : [firstDifference(run.stdout, r.stdout, '--verify-crc')];
      check(label, 'verify_crc passes', problems);
    }
  }

  // limit5: the first 5 lines
  {
    const r = await pending.limit5;
    const want = lines.slice(0, 5);
    const got = splitLines(r.stdout);
    const problems = r.status !== 0 ? [describeRun(r)] : [];
    if (!problems.length && (got.length !== want.length || got.some((l, k) => l !== want[k]))) {
      problems.push(`--limit 5 gave ${got.length} lines; first difference at line ${got.findIndex((l, k) => l !== want[k])}`);
    }
    check(label, 'limit5', problems);
  }

  // select: odd-numbered columns in reverse order, plus struct fields (s.a, s.b.c), against the
  // projection of the full output
  {
    const names = rows[0] ? rows[0].members.map((m) => m[0]) : (duck?.names ?? []);
    const selectable = (n) => n.length > 0 && !/[.,]/.test(n) && n.trim() === n;
    const top = names.map((n, k) => [n, k]).filter(([n, k]) => (names.length === 1 || k % 2 === 1) && selectable(n)).reverse();
    const nested = [];
    for (const [c, d] of (duck?.descs ?? []).entries()) {
      const name = duck.names[c];
      if (d.kind !== 'STRUCT' || !selectable(name) || d.fields.length === 0) continue;
      const first = d.fields[0][0];
      if (selectable(first)) nested.push([name, first]);
      const last = d.fields.at(-1)[0];
      if (d.fields.length > 1 && selectable(last)) nested.push([name, last]);
      const inner = d.fields.find(([n, t]) => selectable(n) && t.kind === 'STRUCT' && t.fields.length && selectable(t.fields[0][0]));
      if (inner) nested.push([name, inner[0], inner[1].fields[0][0]]);
    }
    const paths = [...top.map(([n]) => [n]), ...nested.slice(0, 4)];
    const notes = [`--select ${paths.map((p) => p.join('.')).join(',')}`];
    const problems = [];
    if (paths.length === 0) {
      check(label, 'select', [], ['no selectable column']);
    } else {
      const r = await scan('--select', paths.map((p) => p.join('.')).join(','));
      if (r.status !== 0) problems.push(describeRun(r));
      else {
        const got = splitLines(r.stdout);
        const want = rows.map((row) => '{' + paths.map((p) => `${pqsiftJsonString(p.join('.'))}:${project(row, p)}`).join(',') + '}');
        if (got.length !== want.length) problems.push(`${got.length} lines, expected ${want.length}`);
        const k = want.findIndex((l, i) => l !== got[i]);
        if (k >= 0) problems.push(`line ${k}: got ${String(got[k]).slice(0, 300)}`, `   expected ${want[k].slice(0, 300)}`);
      }
      check(label, 'select', problems, notes);
    }
  }
}

// Columns that hold the same instants as a naive nanosecond column (tools/peers/make_files.mjs:
// Polars' Datetime("ns", "America/New_York") of the same integers as Datetime("ns")).
const SAME_INSTANTS = [['ts_ns_ny', 'ts_ns']];

// Each [column, twin]: the column's text equals transform(the twin's text) on every row.
function checkTwins(label, rows, pairs, transform = (v) => v) {
  const problems = [];
  for (const [col, twin] of pairs) {
    let bad = 0;
    rows.forEach((row, r) => {
      const a = row.members.findIndex((m) => m[0] === col);
      const b = row.members.findIndex((m) => m[0] === twin);
      if (a < 0 || b < 0 || row.raw(a) !== transform(row.raw(b))) {
        if (++bad <= 5) problems.push(`row ${r}: ${col} = ${a < 0 ? 'missing' : row.raw(a)}, ${twin} = ${b < 0 ? 'missing' : row.raw(b)}`);
      }
    });
  }
  check(label, 'twins', problems, [pairs.map(([a, b]) => `${a} == ${b}`).join(', ')]);
}

// The raw JSON text of path p (top-level name, then struct fields) in a parsed row; null when a
// struct on the way is null.
function project(row, p) {
  let obj = row;
  for (let k = 0; k < p.length; k++) {
    const idx = obj.members.findIndex((m) => m[0] === p[k]);
    if (idx < 0) return `!missing(${p.join('.')})`;
    if (k === p.length - 1) return obj.raw(idx);
    const v = obj.members[idx][1];
    if (v === null) return 'null';
    if (!(v instanceof cmp.JObj)) return `!not-a-struct(${p.join('.')})`;
    obj = v;
  }
  return '!unreachable';
}

function firstDifference(a, b, what) {
  const la = splitLines(a);
  const lb = splitLines(b);
  const k = la.findIndex((l, i) => l !== lb[i]);
  if (k < 0) return `${what}: ${lb.length} lines instead of ${la.length}`;
  return `${what}: line ${k} differs: ${String(lb[k]).slice(0, 200)} (default: ${la[k].slice(0, 200)})`;
}

// ---------------------------------------------------------------------------------------------
// Malformed files and checksums
// ---------------------------------------------------------------------------------------------

async function checkBadFile(file, label) {
  for (const extra of [[], ['--verify-crc', '--threads', '1', '--batch-size', '7']]) {
    const name = extra.length ? 'fails cleanly (--verify-crc --threads 1 --batch-size 7)' : 'fails cleanly';
    const r = await runPqsift(['scan', '--format', 'jsonl', ...extra, file], 30000);
    if (r.status === 0 && !r.signal) {
      // It scans: compare with DuckDB when DuckDB can read it.
      let note;
      const problems = [];
      try {
        const duck = await duckTable(file);
        const rows = splitLines(r.stdout).map((l) => cmp.parseJsonLine(l));
        const res = cmp.compareTables(duck, { rows });
        problems.push(...res.structural, ...res.mismatches.map((m) => `column ${m.column} row ${m.row}: pqsift ${m.ours.slice(0, 100)} vs duckdb ${m.duck.slice(0, 100)}`));
        note = `pqsift scans it (${rows.length} rows) and agrees with DuckDB`;
      } catch (e) {
        note = `pqsift scans it (${splitLines(r.stdout).length} rows); DuckDB cannot: ${e.message.split('\n')[0].slice(0, 200)}`;
      }
      check(label, name.replace('fails cleanly', 'scans'), problems, [note]);
    } else {
      check(label, name, errorShapeProblems(r, file), [r.stderr.trim().slice(0, 300)]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const workdir = path.resolve(args.workdir);
fs.rmSync(workdir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
const t0 = Date.now();
let generated;
if (args.files) {
  generated = fs.readdirSync(args.files).filter((f) => f.endsWith('.parquet')).sort().map((f) => path.join(args.files, f));
  process.stdout.write(`${NAME}: ${generated.length} files from ${args.files}\n`);
} else {
  generated = await makeFiles(path.join(workdir, 'files'));
  process.stdout.write(`${NAME}: ${generated.length} files written in ${Date.now() - t0} ms to ${path.join(workdir, 'files')}\n`);
}
const onlyList = args.only ? args.only.split(',') : null;
const only = (f) => !onlyList || onlyList.some((o) => path.basename(f).includes(o));

// coverage: the generated files really hold what this test claims to decode (independent census)
if (!onlyList && !args.files) {
  const all = { codecs: new Set(), pageTypes: new Set(), encodings: new Set(), maxPages: 0, rowGroups: 0 };
  for (const f of generated) {
    const c = pageCensus(f);
    for (const k of ['codecs', 'pageTypes', 'encodings']) for (const x of c[k]) all[k].add(x);
    all.maxPages = Math.max(all.maxPages, c.maxPagesPerChunk);
    all.rowGroups = Math.max(all.rowGroups, new Set(c.chunks.map((x) => x.rowGroup)).size);
  }
  const want = {
    codecs: ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'],
    pageTypes: ['DATA_PAGE', 'DATA_PAGE_V2', 'DICTIONARY_PAGE'],
    encodings: ['PLAIN', 'PLAIN_DICTIONARY', 'RLE_DICTIONARY', 'RLE', 'DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY',
      'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT'],
  };
  const problems = [];
  for (const [k, list] of Object.entries(want)) for (const x of list) if (!all[k].has(x)) problems.push(`no ${k} ${x} in the generated files`);
  if (all.maxPages < 50) problems.push(`at most ${all.maxPages} data pages in a column chunk, expected >= 50`);
  if (all.rowGroups < 10) problems.push(`at most ${all.rowGroups} row groups in a file, expected >= 10`);
  check('generated files', 'coverage', problems,
        [`codecs ${[...all.codecs].join(',')}; pages ${[...all.pageTypes].join(',')}; encodings ${[...all.encodings].join(',')}; ` +
         `up to ${all.maxPages} data pages per chunk, ${all.rowGroups} row groups per file`]);
}

async function guarded(label, f) {
  try {
    await f();
  } catch (e) {
    check(label, 'internal', [`the test itself failed: ${e.stack ?? e}`]);
  }
}

for (const f of generated.filter(only)) await guarded(path.basename(f), () => checkFile(f, path.basename(f)));

if (args.testing && fs.existsSync(path.join(args.testing, 'data'))) {
  const dataDir = path.join(args.testing, 'data');
  const badDir = path.join(args.testing, 'bad_data');
  const malformed = new Set(['nation.dict-malformed.parquet']);
  const corrupt = new Set(['datapage_v1-corrupt-checksum.parquet', 'rle-dict-uncompressed-corrupt-checksum.parquet']);
  const data = fs.readdirSync(dataDir).filter((f) => f.endsWith('.parquet')).sort();
  for (const name of data.filter(only)) {
    const file = path.join(dataDir, name);
    const label = `parquet-testing/data/${name}`;
    if (malformed.has(name)) { await guarded(label, () => checkBadFile(file, label)); continue; }
    const expect = path.join(dataDir, name.replace(/\.parquet$/, '_expect.csv'));
    await guarded(label, () => checkFile(file, label, {
      expectCsv: fs.existsSync(expect) ? expect : undefined,
      crc: corrupt.has(name) ? 'fail' : 'pass',
    }));
  }
  if (fs.existsSync(badDir)) {
    for (const name of fs.readdirSync(badDir).filter((f) => f.endsWith('.parquet')).sort().filter(only)) {
      const label = `parquet-testing/bad_data/${name}`;
      await guarded(label, () => checkBadFile(path.join(badDir, name), label));
    }
  }
} else if (args.testing) {
  process.stdout.write(`${NAME}: ${args.testing}/data not found: parquet-testing files skipped\n`);
}

for (const a of ALLOWLIST) {
  const complete = !onlyList && args.testing && fs.existsSync(path.join(args.testing, 'data'));
  if ((tested.has(a.file) || complete) && !usedAllow.has(a)) {
    check(a.file, 'allow-list', [`stale entry ${JSON.stringify({ kind: a.kind, column: a.column })}: ` +
      (a.kind === 'values' ? 'the column now agrees with DuckDB' : a.kind === 'duckdb-error' ? 'DuckDB now reads the file'
        : 'pqsift now scans the file') + ' (or the file was not tested): remove it']);
  }
}
fs.writeFileSync(path.join(workdir, 'mismatches.txt'), report.join('\n') + '\n');
finish(`${NAME}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s; details in ${path.join(workdir, 'mismatches.txt')}`);

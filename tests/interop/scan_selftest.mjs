#!/usr/bin/env node
// Tests scan_vs_duckdb.mjs itself, so that it cannot pass whatever pqsift writes:
//
//  1. a rendering of DuckDB's values in pqsift's documented JSON Lines format (reference_scan.mjs,
//     written from batch_writer.h, not from pqsift's output) matches DuckDB on every generated
//     file: the normalisations accept the format;
//  2. each deliberate corruption of that rendering (a changed value of every kind, a dropped or
//     duplicated row, swapped rows or columns, a renamed column, a NULL turned into a value and
//     back, nested changes, a number written unsafely) is reported by compareTables;
//  3. the whole test, run with reference_scan.mjs as --pqsift, passes; and fails when the
//     reference corrupts a value, drops a row, differs only with --threads 1 or --batch-size 7,
//     writes the wrong --limit or --select output, crashes, or writes two stderr lines.
//
//   node tests/interop/scan_selftest.mjs --workdir DIR
// Prints `scan_selftest: N passed, M failed`; exits 1 on any failure.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');
const NAME = 'scan_selftest';

let passed = 0;
let failed = 0;
function finish(extra) {
  if (extra) process.stdout.write(extra + '\n');
  process.stdout.write(`${NAME}: ${passed} passed, ${failed} failed\n`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}
const ok = (name) => { passed++; process.stdout.write(`PASS ${name}\n`); };
const bad = (name, why) => { failed++; process.stdout.write(`FAIL ${name}: ${why}\n`); };

const wi = process.argv.indexOf('--workdir');
if (wi < 0 || !process.argv[wi + 1]) {
  process.stderr.write('usage: node tests/interop/scan_selftest.mjs --workdir DIR\n');
  process.exit(2);
}
if (!fs.existsSync(path.join(peers, 'node_modules', '@duckdb', 'node-api', 'package.json'))) {
  failed++;
  finish(`${NAME}: FAIL: ${path.join(peers, 'node_modules')} is missing; run scripts/setup`);
}

const workdir = path.resolve(process.argv[wi + 1]);
fs.rmSync(workdir, { recursive: true, force: true });
const { makeFiles } = await import(pathToFileURL(path.join(peers, 'make_files.mjs')));
const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js')));
const cmp = await import(pathToFileURL(path.join(here, 'compare_scan.mjs')));
const { renderValue } = await import(pathToFileURL(path.join(here, 'reference_scan.mjs')));

const filesDir = path.join(workdir, 'files');
const files = await makeFiles(filesDir);
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
await con.run(`SET TimeZone = 'UTC'`);

// DuckDB's table (canonical) and the reference rendering (JSON Lines text) of a file.
const cache = new Map();
async function load(name) {
  if (!cache.has(name)) {
    const file = path.join(filesDir, name);
    const reader = await con.runAndReadAll(`SELECT * FROM read_parquet('${file.replaceAll("'", "''")}')`);
    const names = reader.columnNames();
    const descs = reader.columnTypes().map(cmp.typeDesc);
    const rows = reader.getRows();
    const canon = rows.map((row) => row.map((v, c) => cmp.canonDuck(descs[c], v)));
    const lines = rows.map((row) => `{${row.map((v, c) => `${JSON.stringify(names[c])}:${renderValue(descs[c], v)}`).join(',')}}`);
    cache.set(name, { duck: { names, descs, canon }, lines });
  }
  return cache.get(name);
}
const compare = (duck, lines) => cmp.compareTables(duck, { rows: lines.map((l) => cmp.parseJsonLine(l)) });
const problemsOf = (r) => [...r.structural, ...r.mismatches.map((m) => `${m.column} row ${m.row}: ${m.oursCanon} vs ${m.duck}`)];

// 1. The reference rendering matches DuckDB on every file DuckDB reads (but the two largest,
// which hold the same columns as duckdb_wide_v1_gzip.parquet: they only cost time here).
for (const file of files.filter((f) => !/duckdb_wide_v2_zstd|duckdb_wide_v1_snappy/.test(f))) {
  const name = path.basename(file);
  let loaded;
  try {
    loaded = await load(name);
  } catch (e) {
    if (/LZ4|BYTE_STREAM_SPLIT/.test(e.message)) { ok(`${name}: DuckDB cannot read it (allow-listed in scan_allowlist.mjs)`); continue; }
    bad(`reference matches DuckDB on ${name}`, e.message);
    continue;
  }
  const r = compare(loaded.duck, loaded.lines);
  const p = problemsOf(r);
  if (p.length) bad(`reference matches DuckDB on ${name}`, p.slice(0, 3).join(' | '));
  else ok(`reference matches DuckDB on ${name} (${r.cells} values)`);
}

// 2. Corruptions of one line (or of the row list) are detected.
// Replaces the value of `column` in row `row` (its exact JSON text) by f(text).
function setValue(lines, row, column, f) {
  const obj = cmp.parseJsonLine(lines[row]);
  const k = obj.members.findIndex((m) => m[0] === column);
  if (k < 0) throw new Error(`no column ${column}`);
  const [, , start, end] = obj.members[k];
  const old = lines[row].slice(start, end);
  const now = f(old);
  if (now === old) throw new Error(`mutation left ${column} row ${row} unchanged (${old.slice(0, 60)})`);
  lines[row] = lines[row].slice(0, start) + now + lines[row].slice(end);
}
const firstRow = (lines, column, pred) => {
  const r = lines.findIndex((l) => { const o = cmp.parseJsonLine(l); const k = o.members.findIndex((m) => m[0] === column); return k >= 0 && pred(o.raw(k)); });
  if (r < 0) throw new Error(`no row of ${column} matches`);
  return r;
};
const lastDigit = (t) => t.replace(/(\d)(\D*)$/, (m, d, rest) => `${(Number(d) + 1) % 10}${rest}`);
const at = (column, pred, f) => (lines) => setValue(lines, firstRow(lines, column, pred), column, f);
const notNull = (t) => t !== 'null';

const S = 'duckdb_scalars_snappy.parquet';
const N = 'duckdb_nested_zstd.parquet';
const X = 'duckdb_special_snappy.parquet';
const D = 'duckdb_nested_deep_v2_gzip.parquet';
const P = 'polars_types_snappy.parquet';
const W = 'duckdb_wide_v2_lz4.parquet';
const PS = 'polars_special_zstd.parquet';
const mutations = [
  [S, 'row dropped', (l) => { l.splice(1234, 1); }],
  [S, 'row duplicated', (l) => { l.splice(10, 0, l[10]); }],
  [S, 'two rows swapped', (l) => { [l[7], l[8]] = [l[8], l[7]]; }],
  [S, 'last row dropped', (l) => { l.pop(); }],
  [S, 'columns swapped (i8, i16)', (l) => { l[3] = l[3].replace(/"i8":([^,]*),"i16":([^,]*),/, '"i16":$2,"i8":$1,'); }],
  [S, 'column renamed', (l) => { l[0] = l[0].replace('"u8":', '"u_8":'); }],
  [S, 'column dropped', (l) => { l[0] = l[0].replace(/,"constant":42/, ''); }],
  [S, 'null turned into a value (sparse)', at('sparse', (t) => t === 'null', () => '0')],
  [S, 'value turned into null (constant)', at('constant', notNull, () => 'null')],
  [S, 'boolean flipped', at('b', (t) => t === 'true', () => 'false')],
  [S, 'i8 +1', at('i8', notNull, lastDigit)],
  [S, 'i32 extreme changed', at('i32', (t) => t === '-2147483648', () => '-2147483647')],
  [S, 'i64 beyond 2^53, last digit', at('i64', (t) => t.startsWith('"'), lastDigit)],
  [S, 'i64 beyond 2^53 written as a JSON number', at('i64', (t) => t.startsWith('"'), (t) => t.slice(1, -1))],
  [S, 'u64 max - 1', at('u64', (t) => t === '"18446744073709551615"', () => '"18446744073709551614"')],
  [S, 'u32 as a string', at('u32', (t) => t !== 'null' && !t.startsWith('"'), (t) => `"${t}"`)],
  [S, 'f32 one ulp', at('f32', (t) => t === '-357.14285', () => '-357.1428')],
  [S, 'f64 last digit', at('f64', (t) => t.length > 6 && t !== 'null', lastDigit)],
  [S, 'f64 max finite -> Infinity', at('f64', (t) => t === '1.7976931348623157e+308', () => '"Infinity"')],
  [S, 'dec9 last digit', at('dec9', notNull, lastDigit)],
  [S, 'dec18 last digit', at('dec18', notNull, lastDigit)],
  [S, 'dec38 scale (point moved)', at('dec38', notNull, (t) => t.replace(/(\d)\./, '.$1'))],
  [S, 'dec38 as a JSON number with > 15 digits', at('dec38', notNull, (t) => t.slice(1, -1))],
  [S, 'date +1 day', at('dt', notNull, (t) => t.replace(/(\d)"$/, (m, d) => `${(Number(d) + 1) % 10}"`))],
  [S, 'time +1 us', at('tm', (t) => /\.\d{6}"$/.test(t), lastDigit)],
  [S, 'ts_ns +1 ns', at('ts_ns', (t) => /\.\d{9}"$/.test(t), lastDigit)],
  [S, 'ts_us +1 us', at('ts_us', (t) => /\.\d{6}"$/.test(t), lastDigit)],
  [S, 'ts_ms +1 ms', at('ts_ms', (t) => /\.\d{3}"$/.test(t), lastDigit)],
  [S, 'ts_s +1 s', at('ts_s', notNull, lastDigit)],
  [S, 'tstz without +00', at('tstz', notNull, (t) => t.replace('+00"', '"'))],
  [S, 'naive ts with +00', at('ts_us', notNull, (t) => t.replace(/"$/, '+00"'))],
  [S, 'string changed (ü -> u)', at('v', (t) => t.includes('ü'), (t) => t.replace('ü', 'u'))],
  [S, 'empty string -> null', at('v', (t) => t === '""', () => 'null')],
  [S, 'blob byte changed', at('bl', notNull, (t) => t.replace(/.(")$/, (m, q) => `${m[0] === '0' ? '1' : '0'}${q}`))],
  [S, 'uuid changed', at('u', notNull, (t) => t.replace(/.(")$/, (m, q) => `${m[0] === '0' ? '1' : '0'}${q}`))],
  [S, 'interval changed', at('iv', (t) => t !== 'null', (t) => t.replace('0x', '0x1').slice(0, -2) + '"')],
  [S, 'enum changed', at('en', (t) => t === '"red"', () => '"green"')],
  [S, 'json changed', at('js', notNull, (t) => t.replace('k', 'K'))],
  [S, 'TIMETZ changed', at('ttz', notNull, lastDigit)],
  [X, '-0.0 -> 0', at('dspecial', (t) => t === '-0', () => '0')],
  [X, 'NaN -> Infinity', at('dspecial', (t) => t === '"NaN"', () => '"Infinity"')],
  [X, '-Infinity -> Infinity', at('dspecial', (t) => t === '"-Infinity"', () => '"Infinity"')],
  [PS, 'float32 -0 -> 0', at('f', (t) => t === '-0', () => '0')],
  [PS, 'float32 NaN -> null', at('f', (t) => t === '"NaN"', () => 'null')],
  [X, 'long string truncated', at('very_long_str', notNull, (t) => t.slice(0, -2) + '"')],
  [X, 'unicode string changed', at('unicode_str', (t) => t.includes('😀'), (t) => t.replace('😀', '😁'))],
  [N, 'list element dropped', at('li', (t) => t.startsWith('[') && t.length > 2, (t) => t.replace(/^\[[^,]*,/, '['))],
  [N, 'empty list -> null', at('li', (t) => t === '[]', () => 'null')],
  [N, 'null list -> empty', at('li', (t) => t === 'null', () => '[]')],
  [N, 'list of lists: [] -> [null]', at('lli', (t) => t.includes(',[],'), (t) => t.replace(',[],', ',[null],'))],
  [N, 'struct keys swapped', at('st', (t) => t.startsWith('{'), (t) => t.replace(/^\{"a":([^,]*),"b":([^,]*),/, '{"b":$2,"a":$1,'))],
  [N, 'struct field null -> value', at('st', (t) => t.includes('"a":null'), (t) => t.replace('"a":null', '"a":0'))],
  [N, 'struct -> null', at('st', (t) => t.startsWith('{'), () => 'null')],
  [N, 'map entry dropped', at('mp', (t) => t.startsWith('{'), (t) => t.replace(/,"z\d+":null\}$/, '}'))],
  [N, 'map key changed', at('mp', (t) => t.startsWith('{'), (t) => t.replace('"k', '"K'))],
  [N, 'map as an array of entries', at('mp', (t) => t.startsWith('{'), (t) => {
    const o = cmp.parseJsonLine(t);
    return `[${o.members.map((m, k) => `{"key":${JSON.stringify(m[0])},"value":${o.raw(k)}}`).join(',')}]`;
  })],
  [N, 'list of structs: element -> null', at('los', (t) => t.startsWith('[{'), (t) => t.replace(/^\[\{[^}]*\}/, '[null'))],
  [N, 'array item changed', at('arr', (t) => t.startsWith('[1'), (t) => t.replace('[1', '[2'))],
  [D, 'map with integer keys: key changed', at('map_int_key', (t) => t.startsWith('[{'), (t) => t.replace(/"key":(-?)(\d)/, (m, s, d) => `"key":${s}${(Number(d) + 1) % 10}`))],
  [D, 'map with integer keys written as an object', at('map_int_key', (t) => t.startsWith('[{'), (t) => {
    const entries = cmp.parseJsonLine(t);
    return `{${entries.map((e) => `"${e.members[0][1].text}":${e.raw(1)}`).join(',')}}`;
  })],
  [D, 'list of list of list: innermost item changed', at('lll', (t) => t.startsWith('[[['), (t) => t.replace(/^\[\[\[(\d)/, (m, d) => `[[[${(Number(d) + 1) % 10}`))],
  [D, 'struct of map (DATE keys): map value changed', at('st_map', (t) => /"m":\[\{"key"/.test(t), (t) => t.replace(/"value":(true|false)/, (m, b) => `"value":${b === 'true' ? 'false' : 'true'}`))],
  [D, 'struct of map (DATE keys): key changed', at('st_map', (t) => /"m":\[\{"key"/.test(t), (t) => t.replace(/"key":"(\d{4})/, (m, y) => `"key":"${Number(y) + 1}`))],
  [D, 'list of nulls: one item set', at('list_all_null_items', () => true, () => '[null,0]')],
  [P, 'ts_ns_ny (DuckDB: microseconds) +1 us, with nanosecond digits', at('ts_ns_ny', (t) => /\.\d{6}\+00"$/.test(t), (t) => t.replace(/(\d)\+00"$/, (m, d) => `${(Number(d) + 1) % 10}999+00"`))],
  [P, 'ts_ms_utc zone dropped', at('ts_ms_utc', notNull, (t) => t.replace('+00"', '"'))],
  [P, 'u64 (Polars) changed', at('u64', (t) => t.startsWith('"'), lastDigit)],
  [P, 'categorical changed', at('cat', (t) => t === '"red"', () => '"blue"')],
  [W, 'DELTA_BINARY_PACKED extreme changed', at('i64_wide', (t) => t === '"-9223372036854775808"', () => '"-9223372036854775807"')],
  [W, 'long string one character changed', at('s_long', (t) => t.length > 4000, (t) => t.replace(/^"(.)/, '"?'))],
  [W, 'null density: a null set in i32_n50', at('i32_n50', (t) => t === 'null', () => '7')],
];
for (const [file, label, mutate] of mutations) {
  const name = `detects ${file}: ${label}`;
  try {
    const { duck, lines } = await load(file);
    const copy = [...lines];
    mutate(copy);
    const r = compare(duck, copy);
    const p = problemsOf(r);
    if (p.length === 0) bad(name, 'no mismatch reported');
    else ok(`${name}  -> ${p[0].slice(0, 140)}`);
  } catch (e) {
    bad(name, e.message);
  }
}

// 2b. Spellings the format allows, or that DuckDB cannot tell apart, are accepted.
const accepted = [
  // after 1970 (truncation toward zero of a negative count of nanoseconds rounds the other way)
  [P, 'ts_ns_ny with nanosecond digits below DuckDB\'s microsecond', at('ts_ns_ny', (t) => t >= '"1970' && /\.\d{6}\+00"$/.test(t), (t) => t.replace(/\+00"$/, '999+00"'))],
  [P, 'ts_ns_ny before 1970 with nanosecond digits that truncate to DuckDB\'s microsecond', at('ts_ns_ny', (t) => t < '"1970' && /\.\d{5}[1-9]\+00"$/.test(t), (t) => t.replace(/(\d)\+00"$/, (m, d) => `${Number(d) - 1}001+00"`))],
  [S, 'a float written with an exponent', at('f64', (t) => t === '-2.75', () => '-2.75e0')],
  [S, 'a decimal of precision <= 15 written as a string', at('dec9', notNull, (t) => `"${t}"`)],
];
for (const [file, label, mutate] of accepted) {
  const name = `accepts ${file}: ${label}`;
  try {
    const { duck, lines } = await load(file);
    const copy = [...lines];
    mutate(copy);
    const p = problemsOf(compare(duck, copy));
    if (p.length) bad(name, p.slice(0, 2).join(' | '));
    else ok(name);
  } catch (e) {
    bad(name, e.message);
  }
}

// 3. The whole test with the reference as pqsift: passes, and fails under each corruption.
const runTest = (mode, only, extra = []) => {
  const r = spawnSync(process.execPath, [path.join(here, 'scan_vs_duckdb.mjs'), '--pqsift', path.join(here, 'reference_scan.mjs'),
    '--workdir', path.join(workdir, `run_${mode || 'clean'}`), '--files', filesDir, '--only', only, ...extra],
  { encoding: 'utf8', env: { ...process.env, PQSIFT_REFERENCE_CORRUPT: mode }, maxBuffer: 1 << 28 });
  const last = r.stdout.trim().split('\n').at(-1);
  const m = /^scan_vs_duckdb: (\d+) passed, (\d+) failed$/.exec(last ?? '');
  const fails = r.stdout.split('\n').filter((l) => l.startsWith('FAIL')).map((l) => l.slice(0, 160));
  return { status: r.status, passed: m ? Number(m[1]) : -1, failed: m ? Number(m[2]) : -1, fails, last };
};
const testing = path.resolve(here, '../../../shared/data/parquet-testing');
const E2E = 'duckdb_nested_zstd,duckdb_one_row';
{
  const r = runTest('', E2E, ['--no-testing']);
  if (r.status === 0 && r.failed === 0 && r.passed >= 12) ok(`end to end: the reference passes (${r.last})`);
  else bad('end to end: the reference passes', `exit ${r.status}, ${r.last}; ${r.fails.slice(0, 3).join(' | ')}`);
}
// Two corrupted runs: 'value' alone (the DuckDB comparison must fail, the row count must not),
// then every self-consistency corruption at once, each of which must fail its own check.
const e2e = [
  ['value', ['duckdb'], ['rows']],
  ['rows,threads1,batch7,limit,select', ['rows', 'threads1', 'batch7', 'limit5', 'select'], []],
];
for (const [mode, mustFail, mustPass] of e2e) {
  const r = runTest(mode, 'duckdb_nested_zstd', ['--no-testing']);
  const failedChecks = (c) => r.fails.some((l) => l.startsWith(`FAIL duckdb_nested_zstd.parquet ${c}:`));
  const missing = mustFail.filter((c) => !failedChecks(c));
  const wrong = mustPass.filter(failedChecks);
  if (r.status === 1 && missing.length === 0 && wrong.length === 0) ok(`end to end: corruption "${mode}" fails ${mustFail.join(', ')} (${r.last})`);
  else bad(`end to end: corruption "${mode}"`, `exit ${r.status}, not failed: ${missing.join(', ') || '-'}, wrongly failed: ${wrong.join(', ') || '-'}; ${r.last}; ${r.fails.join(' | ')}`);
}
if (fs.existsSync(path.join(testing, 'data', 'nation.dict-malformed.parquet'))) {
  // DuckDB cannot read nation.dict-malformed.parquet either, so the reference fails cleanly.
  const clean = runTest('', 'nation.dict-malformed', ['--testing', testing]);
  if (clean.status === 0 && clean.failed === 0 && clean.passed >= 2) ok(`end to end: a clean error passes (${clean.last})`);
  else bad('end to end: a clean error passes', `exit ${clean.status}, ${clean.last}; ${clean.fails.join(' | ')}`);
  for (const mode of ['crash', 'stderr']) {
    const r = runTest(mode, 'nation.dict-malformed', ['--testing', testing]);
    if (r.status === 1 && r.failed >= 2) ok(`end to end: "${mode}" on a malformed file is caught (${r.last})`);
    else bad(`end to end: "${mode}" on a malformed file is caught`, `exit ${r.status}, ${r.last}`);
  }
} else {
  process.stdout.write(`${NAME}: ${testing} not found: the malformed-file checks of the test are not exercised\n`);
}
finish();

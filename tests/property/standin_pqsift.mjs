#!/usr/bin/env node
// A stand-in for `pqsift scan FILE --where EXPR --format jsonl [--select a,b] [--no-prune]
// [--threads N] [--stats-json PATH]` that asks DuckDB and renders its rows in pqsift's JSON Lines
// format (tests/interop/reference_scan.mjs). It is not pqsift: it exists so that selftest.mjs can
// show differential.mjs passes a correct scanner and catches each way a pruning scanner can be
// wrong. Its --stats-json reports "oracle pruning": the row groups holding a matching row.
//
// PQSIFT_STANDIN_CORRUPT, a comma-separated set of:
//   drop-pruned   without --no-prune, the middle row is missing
//   order-pruned  without --no-prune, the rows come in reverse order
//   extra         a row that does not match is appended
//   flip          one value of the middle row is changed
//   null          NOT (x) is evaluated as (x) IS NOT TRUE (two-valued logic: NOT NULL -> TRUE)
//   nan           NaN never matches (IEEE comparisons instead of DuckDB's NaN > every number)
//   reject-like   a type error (exit 1, one stderr line) for every predicate holding LIKE
//   crash         SIGSEGV when pruning (only when run as a process)
//
// Run as a script (node standin_pqsift.mjs scan ...) or imported: run(argv) -> Promise of
// { status, stdout, stderr } (differential.mjs --in-process).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');
const { typeDesc } = await import(pathToFileURL(path.resolve(here, '../interop/compare_scan.mjs')));
const { renderValue, jsonString } = await import(pathToFileURL(path.resolve(here, '../interop/reference_scan.mjs')));
const { duckDialect } = await import(pathToFileURL(path.join(here, 'generate.mjs')));
const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js')));

let con = null;
async function connection() {
  if (!con) {
    const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
    con = await inst.connect();
    await con.run('SET threads = 1');
    await con.run(`SET TimeZone = 'UTC'`);
    await con.run('SET preserve_insertion_order = true');
  }
  return con;
}

const sqlPath = (p) => `'${p.replaceAll("'", "''")}'`;

// Index of the parenthesis closing the one at `open`, skipping '...' string literals.
function closing(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'") { i = text.indexOf("'", i + 1); while (text[i + 1] === "'") i = text.indexOf("'", i + 2); continue; }
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

// NOT (x) -> ((x) IS NOT TRUE), innermost first (the generator always writes NOT with parentheses).
function twoValuedNot(text) {
  for (;;) {
    let at = -1;
    for (let i = text.indexOf('NOT ('); i >= 0; i = text.indexOf('NOT (', i + 1)) {
      if (!/[A-Za-z_]$/.test(text.slice(0, i)) && !/'[^']*$/.test(text.slice(0, i).replace(/'[^']*'/g, ''))) at = i;
    }
    if (at < 0) return text;
    const open = at + 4;
    const close = closing(text, open);
    if (close < 0) return text;
    text = `${text.slice(0, at)}(${text.slice(open, close + 1)} IS NOT TRUE)${text.slice(close + 1)}`;
  }
}

async function scan(argv) {
  const a = { select: null, where: 'TRUE', prune: true, threads: 0, format: 'csv', files: [], stats: null };
  if (argv[0] !== 'scan') return { status: 2, stdout: '', stderr: 'pqsift: only "scan" is supported by the stand-in\n' };
  for (let i = 1; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--select') a.select = argv[++i];
    else if (x === '--where') a.where = argv[++i];
    else if (x === '--no-prune') a.prune = false;
    else if (x === '--threads') a.threads = Number(argv[++i]);
    else if (x === '--format') a.format = argv[++i];
    else if (x === '--stats-json') a.stats = argv[++i];
    else if (x === '--footer-read-bytes') ++i;  // I/O only: the rows are the same
    else a.files.push(x);
  }
  if (a.format !== 'jsonl' || a.files.length !== 1) return { status: 2, stdout: '', stderr: 'pqsift: the stand-in writes --format jsonl of one file\n' };
  const file = a.files[0];
  const modes = new Set((process.env.PQSIFT_STANDIN_CORRUPT ?? '').split(',').filter(Boolean));
  if (modes.has('reject-like') && /LIKE/.test(a.where)) {
    return { status: 1, stdout: '', stderr: `pqsift: --where: type error: LIKE is not supported here\n` };
  }
  const c = await connection();
  const src = `read_parquet(${sqlPath(file)})`;
  let where = duckDialect(a.where);
  if (modes.has('null')) where = twoValuedNot(where);
  if (modes.has('nan')) {
    const head = await c.runAndReadAll(`SELECT * FROM ${src} LIMIT 0`);
    const floats = head.columnNames().filter((n, k) => ['FLOAT', 'DOUBLE'].includes(typeDesc(head.columnTypes()[k]).kind));
    if (floats.length) where = `(${where}) AND ${floats.map((n) => `(${n} IS NULL OR NOT isnan(${n}))`).join(' AND ')}`;
  }
  const paths = a.select ? a.select.split(',').map((s) => s.trim()) : null;
  const selSql = paths ? paths.map((p) => `${p} AS "${p}"`).join(', ') : '*';
  let reader;
  try {
    // Evaluated as a projection, like differential.mjs's oracle (DuckDB's filter rewrites have
    // bugs of their own).
    reader = await c.runAndReadAll(`SELECT * EXCLUDE (__keep) FROM (SELECT (${where}) AS __keep, ${selSql} FROM ${src}) WHERE __keep IS TRUE`);
  } catch (e) {
    return { status: 1, stdout: '', stderr: `pqsift: ${e.message.split('\n')[0]}\n` };
  }
  const names = reader.columnNames();
  const descs = reader.columnTypes().map(typeDesc);
  const render = (row) => `{${row.map((v, k) => `${jsonString(names[k])}:${renderValue(descs[k], v)}`).join(',')}}`;
  let lines = reader.getRows().map(render);
  const middle = Math.floor(lines.length / 2);
  if (modes.has('flip') && lines.length) {
    const before = lines[middle];
    let line = before.replace(/:(-?)(\d)/, (m, sign, d) => `:${sign}${d === '9' ? '8' : String(Number(d) + 1)}`);
    if (line === before) line = line.replace(/:"/, ':"~');
    if (line === before) line = line.replace(/:(true|false)/, (m, b) => `:${b === 'true' ? 'false' : 'true'}`);
    if (line === before) line = line.replace(/:null/, ':1');
    lines[middle] = line;
  }
  if (modes.has('extra')) {
    const other = await c.runAndReadAll(`SELECT ${selSql} FROM ${src} WHERE (${duckDialect(a.where)}) IS NOT TRUE LIMIT 1`);
    lines.push(...other.getRows().map(render));
  }
  if (a.prune && modes.has('drop-pruned') && lines.length) lines.splice(middle, 1);
  if (a.prune && modes.has('order-pruned')) lines = lines.reverse();
  if (a.stats) {
    const groups = (await c.runAndReadAll(
      `SELECT row_group_id, any_value(row_group_num_rows) FROM parquet_metadata(${sqlPath(file)}) GROUP BY 1 ORDER BY 1`)).getRows();
    let read = groups.length;
    if (a.prune) {
      const ends = [];
      let end = 0;
      for (const g of groups) ends.push((end += Number(g[1])));
      const hits = (await c.runAndReadAll(
        `SELECT file_row_number FROM read_parquet(${sqlPath(file)}, file_row_number = true) WHERE ${duckDialect(a.where)}`)).getRows();
      const used = new Set(hits.map(([r]) => ends.findIndex((e) => Number(r) < e)));
      read = used.size;
    }
    fs.writeFileSync(a.stats, JSON.stringify({ row_groups_total: groups.length, row_groups_read: read, rows_returned: lines.length }) + '\n');
  }
  return { status: 0, stdout: lines.map((l) => l + '\n').join(''), stderr: '' };
}

export async function run(argv) {
  return scan(argv);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const modes = (process.env.PQSIFT_STANDIN_CORRUPT ?? '').split(',');
  if (modes.includes('crash') && !argv.includes('--no-prune')) process.kill(process.pid, 'SIGSEGV');
  const r = await scan(argv);
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.exitCode = r.status;
}

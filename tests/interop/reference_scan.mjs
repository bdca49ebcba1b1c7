#!/usr/bin/env node
// A stand-in for `pqsift scan --format jsonl` that renders DuckDB's reading of a file in pqsift's
// JSON Lines format (src/cli/output/batch_writer.h). It is not pqsift: it exists to test
// scan_vs_duckdb.mjs (scan_selftest.mjs runs the whole test with it as --pqsift, and corrupts its
// output on purpose through PQSIFT_REFERENCE_CORRUPT to show each check can fail).
//
//   node tests/interop/reference_scan.mjs scan --format jsonl [--select a,b.c] [--limit N]
//        [--threads N] [--batch-size N] [--verify-crc] FILE
//
// PQSIFT_REFERENCE_CORRUPT, a comma-separated set of: value (one value of row min(1000, n/2)
// changed, except under --select), rows (the last row dropped), threads1 / batch7 (a value
// changed only with --threads 1 / --batch-size 7), limit (one row short), select (a struct field
// path gives the whole struct), crash (SIGSEGV), stderr (an error on two lines).
// Also importable: renderValue(desc, value), jsonString(s).

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');
const { typeDesc } = await import(pathToFileURL(path.join(here, 'compare_scan.mjs')));

const MAX_SAFE = 9007199254740991n;

export function jsonString(s) {
  return '"' + s.replace(/["\\\u0000-\u001f]/g, (c) => ({ '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' })[c]
    ?? '\\u00' + c.charCodeAt(0).toString(16).padStart(2, '0')) + '"';
}

// Shortest decimal text that reads back as the same float32.
function float32Text(v) {
  for (let p = 1; p <= 9; p++) {
    const t = v.toPrecision(p);
    if (Math.fround(Number(t)) === v) return String(Number(t));
  }
  return String(v);
}

function floatJson(v, f32) {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Infinity) return '"Infinity"';
  if (v === -Infinity) return '"-Infinity"';
  if (Object.is(v, -0)) return '-0';
  return f32 ? float32Text(v) : String(v);
}

function civil(days) {
  // days since 1970-01-01 -> [y, m, d] (Howard Hinnant's civil_from_days)
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}
const p2 = (n) => String(n).padStart(2, '0');
function dateText(days) {
  const [y, m, d] = civil(Number(days));
  const year = y >= 0 && y <= 9999 ? String(y).padStart(4, '0') : (y < 0 ? '-' : '+') + String(Math.abs(y)).padStart(4, '0');
  return `${year}-${p2(m)}-${p2(d)}`;
}
// nanoseconds within the day -> HH:MM:SS[.f] (fraction without trailing zeros)
function clockText(ns, digits) {
  const s = ns / 1000000000n;
  const frac = ns % 1000000000n;
  let out = `${p2(s / 3600n)}:${p2((s / 60n) % 60n)}:${p2(s % 60n)}`;
  if (frac) out += '.' + String(frac).padStart(9, '0').slice(0, digits).replace(/0+$/, '');
  return out;
}
const UNIT = { TIMESTAMP_S: [1000000000n, 0], TIMESTAMP_MS: [1000000n, 3], TIMESTAMP: [1000n, 6], TIMESTAMP_TZ: [1000n, 6], TIMESTAMP_NS: [1n, 9] };
function timestampText(raw, kind) {
  const [perUnit, digits] = UNIT[kind];
  const ns = BigInt(raw) * perUnit;
  const day = 86400000000000n;
  let days = ns / day;
  let rest = ns % day;
  if (rest < 0n) { rest += day; days -= 1n; }
  return `${dateText(days)} ${clockText(rest, digits)}${kind === 'TIMESTAMP_TZ' ? '+00' : ''}`;
}

export function renderValue(d, v) {
  if (v === null || v === undefined) return 'null';
  switch (d.kind) {
    case 'BOOLEAN': return v ? 'true' : 'false';
    case 'FLOAT': return floatJson(v, true);
    case 'DOUBLE': return floatJson(v, false);
    case 'DECIMAL': return d.width > 15 ? `"${v.toString()}"` : v.toString();
    case 'DATE': return `"${dateText(v.days)}"`;
    case 'TIME': return `"${clockText(BigInt(v.micros) * 1000n, 6)}"`;
    case 'TIME_NS': return `"${clockText(BigInt(v.nanos), 9)}"`;
    case 'TIME_TZ': return `"${clockText(BigInt(v.micros) * 1000n, 6)}"`;
    case 'TIMESTAMP': case 'TIMESTAMP_TZ': case 'TIMESTAMP_MS': case 'TIMESTAMP_S': case 'TIMESTAMP_NS':
      return `"${timestampText(v.micros ?? v.millis ?? v.seconds ?? v.nanos, d.kind)}"`;
    case 'VARCHAR': case 'ENUM': return jsonString(v);
    case 'BLOB': return `"0x${Buffer.from(v.bytes).toString('hex')}"`;
    case 'UUID': return `"0x${v.toString().replaceAll('-', '')}"`;
    case 'INTERVAL': {
      const b = Buffer.alloc(12);
      b.writeUInt32LE(v.months, 0);
      b.writeUInt32LE(v.days, 4);
      b.writeUInt32LE(Number(BigInt(v.micros) / 1000n), 8);
      return `"0x${b.toString('hex')}"`;
    }
    case 'LIST': case 'ARRAY': return `[${v.items.map((x) => renderValue(d.item, x)).join(',')}]`;
    case 'STRUCT': return `{${d.fields.map(([n, t]) => `${jsonString(n)}:${renderValue(t, v.entries[n])}`).join(',')}}`;
    case 'MAP':
      if (d.key.kind === 'VARCHAR') return `{${v.entries.map((e) => `${jsonString(e.key)}:${renderValue(d.value, e.value)}`).join(',')}}`;
      return `[${v.entries.map((e) => `{"key":${renderValue(d.key, e.key)},"value":${renderValue(d.value, e.value)}}`).join(',')}]`;
    case 'SQLNULL': return 'null';
    default: {
      const b = BigInt(v);
      return b > MAX_SAFE || b < -MAX_SAFE ? `"${b}"` : String(b);
    }
  }
}

// The value of a dotted path (top-level column, then struct fields) of a DuckDB row.
function pathValue(names, descs, row, p) {
  let c = names.indexOf(p[0]);
  if (c < 0) return undefined;
  let d = descs[c];
  let v = row[c];
  for (const part of p.slice(1)) {
    if (d.kind !== 'STRUCT') return undefined;
    const f = d.fields.find((x) => x[0] === part);
    if (!f) return undefined;
    v = v === null ? null : v.entries[part];
    d = f[1];
  }
  return { d, v };
}

async function main(argv) {
  const a = { select: null, limit: -1, threads: 0, batch: 65536, format: 'csv', files: [] };
  if (argv[0] !== 'scan') { process.stderr.write('pqsift: only "scan" is supported by the reference\n'); return 2; }
  for (let i = 1; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--select') a.select = argv[++i];
    else if (x === '--limit') a.limit = Number(argv[++i]);
    else if (x === '--threads') a.threads = Number(argv[++i]);
    else if (x === '--batch-size') a.batch = Number(argv[++i]);
    else if (x === '--format') a.format = argv[++i];
    else if (x === '--verify-crc') a.crc = true;
    else a.files.push(x);
  }
  if (a.format !== 'jsonl' || a.files.length !== 1) { process.stderr.write('pqsift: the reference writes --format jsonl of one file\n'); return 2; }
  const file = a.files[0];
  const modes = new Set((process.env.PQSIFT_REFERENCE_CORRUPT ?? '').split(',').filter(Boolean));
  if (modes.has('crash')) process.kill(process.pid, 'SIGSEGV');
  if (modes.has('stderr')) {
    process.stderr.write(`pqsift: ${file}: an error\non two lines\n`);
    return 1;
  }
  const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js')));
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await inst.connect();
  await con.run(`SET TimeZone = 'UTC'`);
  let reader;
  try {
    reader = await con.runAndReadAll(`SELECT * FROM read_parquet('${file.replaceAll("'", "''")}')`);
  } catch (e) {
    process.stderr.write(`pqsift: ${file}: ${e.message.split('\n')[0]}\n`);
    return 1;
  }
  const names = reader.columnNames();
  const descs = reader.columnTypes().map(typeDesc);
  let rows = reader.getRows();
  if (modes.has('rows')) rows = rows.slice(0, -1);
  // 'value' and friends change one row, the same whatever the --limit
  const victim = Math.min(1000, Math.floor(rows.length / 2));
  if (a.limit >= 0) rows = rows.slice(0, modes.has('limit') ? Math.max(0, a.limit - 1) : a.limit);
  const paths = a.select ? a.select.split(',').map((s) => s.trim().split('.')) : names.map((n) => [n]);
  const out = [];
  for (const [r, row] of rows.entries()) {
    const parts = paths.map((p) => {
      let pv = pathValue(names, descs, row, p);
      if (modes.has('select') && a.select && p.length > 1) pv = pathValue(names, descs, row, p.slice(0, 1));
      return `${jsonString(p.join('.'))}:${pv ? renderValue(pv.d, pv.v) : 'null'}`;
    });
    let line = `{${parts.join(',')}}`;
    if (r === victim && ((modes.has('value') && !a.select) || (modes.has('threads1') && a.threads === 1) ||
                         (modes.has('batch7') && a.batch === 7))) {
      // the first digit of the first number, else the first string, else the first null
      const before = line;
      line = line.replace(/:(-?)(\d)/, (m, sign, d) => `:${sign}${d === '9' ? '8' : String(Number(d) + 1)}`);
      if (line === before) line = line.replace(/:"/, ':"~');
      if (line === before) line = line.replace(/:null/, ':1');
    }
    out.push(line + '\n');
  }
  process.stdout.write(out.join(''));
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}

#!/usr/bin/env node
// A small reference implementation of `pqsift inspect --json FILE` (docs/inspect-json.md) on
// top of hyparquet's Thrift decoder. It exists to test the comparator (selftest.mjs) without the
// C++ binary, and as an executable reading of the JSON format. It is not pqsift.
//
//   node tests/interop/reference_inspect.mjs inspect --json FILE

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { rawFooter } = await import(pathToFileURL(path.resolve(here, '../../tools/peers/raw_footer.mjs')));

const TYPES = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'];
const REPETITION = ['REQUIRED', 'OPTIONAL', 'REPEATED'];
const CONVERTED = ['UTF8', 'MAP', 'MAP_KEY_VALUE', 'LIST', 'ENUM', 'DECIMAL', 'DATE', 'TIME_MILLIS', 'TIME_MICROS',
  'TIMESTAMP_MILLIS', 'TIMESTAMP_MICROS', 'UINT_8', 'UINT_16', 'UINT_32', 'UINT_64', 'INT_8', 'INT_16', 'INT_32',
  'INT_64', 'JSON', 'BSON', 'INTERVAL'];
const CODECS = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];
const ENCODINGS = ['PLAIN', 'GROUP_VAR_INT', 'PLAIN_DICTIONARY', 'RLE', 'BIT_PACKED', 'DELTA_BINARY_PACKED',
  'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'RLE_DICTIONARY', 'BYTE_STREAM_SPLIT'];
const PAGE_TYPES = ['DATA_PAGE', 'INDEX_PAGE', 'DICTIONARY_PAGE', 'DATA_PAGE_V2'];

const num = (v) => (v === undefined ? undefined : Number(v));
const text = (b) => (b === undefined ? undefined : Buffer.from(b).toString('utf8'));
const dropUndefined = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function unit(u) { return u?.field_1 ? 'MILLIS' : u?.field_2 ? 'MICROS' : u?.field_3 ? 'NANOS' : undefined; }

// Logical type from the LogicalType union, else from the converted type.
function logical(el) {
  const lt = el.field_10;
  const ct = CONVERTED[el.field_6];
  if (lt) {
    if (lt.field_1) return { name: 'STRING' };
    if (lt.field_2) return { name: 'MAP' };
    if (lt.field_3) return { name: 'LIST' };
    if (lt.field_4) return { name: 'ENUM' };
    if (lt.field_5) return { name: 'DECIMAL', scale: lt.field_5.field_1, precision: lt.field_5.field_2 };
    if (lt.field_6) return { name: 'DATE' };
    if (lt.field_7) return { name: 'TIME', utc: lt.field_7.field_1, unit: unit(lt.field_7.field_2) };
    if (lt.field_8) return { name: 'TIMESTAMP', utc: lt.field_8.field_1, unit: unit(lt.field_8.field_2) };
    if (lt.field_10) return { name: 'INTEGER', bits: lt.field_10.field_1, signed: lt.field_10.field_2 };
    if (lt.field_12) return { name: 'JSON' };
    if (lt.field_13) return { name: 'BSON' };
    if (lt.field_14) return { name: 'UUID' };
    if (lt.field_15) return { name: 'FLOAT16' };
  }
  if (!ct) return undefined;
  if (ct === 'UTF8') return { name: 'STRING' };
  if (ct === 'DECIMAL') return { name: 'DECIMAL', scale: el.field_7 ?? 0, precision: el.field_8 };
  if (ct === 'DATE') return { name: 'DATE' };
  if (ct === 'TIME_MILLIS' || ct === 'TIME_MICROS') return { name: 'TIME', utc: true, unit: ct.slice(5) };
  if (ct === 'TIMESTAMP_MILLIS' || ct === 'TIMESTAMP_MICROS') return { name: 'TIMESTAMP', utc: true, unit: ct.slice(10) };
  if (ct.startsWith('UINT_')) return { name: 'INTEGER', bits: Number(ct.slice(5)), signed: false };
  if (ct.startsWith('INT_')) return { name: 'INTEGER', bits: Number(ct.slice(4)), signed: true };
  if (ct === 'ENUM' || ct === 'JSON' || ct === 'BSON') return { name: ct };
  return { name: ct };
}

function logicalName(lt, physical) {
  if (!lt) return physical ?? null;
  if (lt.name === 'INTEGER') return `${lt.signed ? 'INT' : 'UINT'}${lt.bits}`;
  if (lt.name === 'DECIMAL') return `DECIMAL(${lt.precision},${lt.scale})`;
  if (lt.name === 'TIME' || lt.name === 'TIMESTAMP') return `${lt.name}(${lt.unit},${lt.utc ? 'UTC' : 'local'})`;
  return lt.name;
}

// ---- rendering of statistics values

const pad = (n, w = 2) => String(n).padStart(w, '0');

function civilFromDays(z) { // Howard Hinnant's civil_from_days, BigInt
  z += 719468n;
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  return [m <= 2n ? y + 1n : y, m, d];
}

function floorDiv(a, b) { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; }

function renderDate(days) {
  const [y, m, d] = civilFromDays(BigInt(days));
  return `${y < 0n ? '-' : ''}${pad(y < 0n ? -y : y, 4)}-${pad(m)}-${pad(d)}`;
}

function fraction(ns) {
  if (ns === 0n) return '';
  return '.' + pad(ns, 9).replace(/0+$/, '');
}

function renderTime(v, u) {
  const ns = BigInt(v) * (u === 'MILLIS' ? 1000000n : u === 'MICROS' ? 1000n : 1n);
  const s = ns / 1000000000n;
  return `${pad(s / 3600n)}:${pad((s / 60n) % 60n)}:${pad(s % 60n)}${fraction(ns % 1000000000n)}`;
}

function renderTimestamp(v, u, utc) {
  const ns = BigInt(v) * (u === 'MILLIS' ? 1000000n : u === 'MICROS' ? 1000n : 1n);
  const days = floorDiv(ns, 86400000000000n);
  const rest = ns - days * 86400000000000n;
  return `${renderDate(days)} ${renderTime(rest, 'NANOS')}${utc ? '+00' : ''}`;
}

function shortestFloat32(f) {
  for (let p = 1; p <= 9; p++) {
    const s = f.toPrecision(p);
    if (Math.fround(Number(s)) === f) return String(Number(s));
  }
  return String(f);
}

function renderFloat(x, is32) {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (Object.is(x, -0)) return '-0';
  return is32 ? shortestFloat32(x) : String(x);
}

function bigEndianSigned(bytes) {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  if (bytes.length && bytes[0] & 0x80) v -= 1n << BigInt(8 * bytes.length);
  return v;
}

function renderDecimal(unscaled, scale) {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  }
  return (neg ? '-' : '') + digits;
}

function renderText(bytes) {
  const b = Buffer.from(bytes);
  const dec = new TextDecoder('utf-8', { fatal: true });
  try { return dec.decode(b); } catch { /* escape invalid bytes below */ }
  let out = '';
  let i = 0;
  while (i < b.length) {
    let len = b[i] < 0x80 ? 1 : (b[i] >> 5) === 6 ? 2 : (b[i] >> 4) === 14 ? 3 : (b[i] >> 3) === 30 ? 4 : 0;
    let ok = len > 0 && i + len <= b.length;
    if (ok) { try { out += dec.decode(b.subarray(i, i + len)); } catch { ok = false; } }
    if (ok) { i += len; } else { out += `\\x${pad(b[i].toString(16))}`; i += 1; }
  }
  return out;
}

function render(bytes, physical, lt, typeLength) {
  const b = Buffer.from(bytes);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const size = { BOOLEAN: 1, INT32: 4, INT64: 8, INT96: 12, FLOAT: 4, DOUBLE: 8 }[physical] ??
               (physical === 'FIXED_LEN_BYTE_ARRAY' ? typeLength : undefined);
  if (size !== undefined && b.length !== size) return { invalid: true, text: '0x' + b.toString('hex') };
  const name = lt?.name;
  if (physical === 'BOOLEAN') return { text: b[0] ? 'true' : 'false' };
  if (name === 'DECIMAL') {
    const unscaled = physical === 'INT32' ? BigInt(dv.getInt32(0, true)) : physical === 'INT64' ? dv.getBigInt64(0, true) : bigEndianSigned(b);
    return { text: renderDecimal(unscaled, Number(lt.scale ?? 0)) };
  }
  if (physical === 'INT32' || physical === 'INT64') {
    const raw = physical === 'INT32' ? BigInt(dv.getInt32(0, true)) : dv.getBigInt64(0, true);
    if (name === 'DATE') return { text: renderDate(raw) };
    if (name === 'TIME') return { text: renderTime(raw, lt.unit) };
    if (name === 'TIMESTAMP') return { text: renderTimestamp(raw, lt.unit, lt.utc) };
    if (name === 'INTEGER' && !lt.signed) {
      return { text: String(physical === 'INT32' ? dv.getUint32(0, true) : dv.getBigUint64(0, true)) };
    }
    return { text: String(raw) };
  }
  if (physical === 'INT96') {
    const nanos = dv.getBigInt64(0, true);
    const julian = BigInt(dv.getInt32(8, true));
    return { text: renderTimestamp((julian - 2440588n) * 86400000000000n + nanos, 'NANOS', false) };
  }
  if (physical === 'FLOAT') return { text: renderFloat(dv.getFloat32(0, true), true) };
  if (physical === 'DOUBLE') return { text: renderFloat(dv.getFloat64(0, true), false) };
  if (name === 'UUID' && b.length === 16) {
    const h = b.toString('hex');
    return { text: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` };
  }
  if (name === 'STRING' || name === 'ENUM' || name === 'JSON') return { text: renderText(b) };
  return { text: '0x' + b.toString('hex') };
}

// ---- the document

export function inspect(file) {
  const { raw, footerLength } = rawFooter(file);
  const els = raw.field_2 ?? [];
  let pos = 0;
  const columns = [];
  const build = (prefix, def, rep, isRoot) => {
    const el = els[pos++];
    const physical = TYPES[el.field_1];
    const repetition = REPETITION[el.field_3];
    const d = isRoot ? 0 : def + (repetition === 'REQUIRED' ? 0 : 1);
    const r = isRoot ? 0 : rep + (repetition === 'REPEATED' ? 1 : 0);
    const name = text(el.field_4);
    const p = isRoot ? [] : [...prefix, name];
    const lt = logical(el);
    const node = dropUndefined({
      name,
      repetition: isRoot ? undefined : repetition,
      physical_type: physical,
      logical_type: physical || lt ? logicalName(lt, physical) : null,
      converted_type: CONVERTED[el.field_6],
      type_length: physical === 'FIXED_LEN_BYTE_ARRAY' ? el.field_2 : undefined,
      field_id: el.field_9,
    });
    const n = el.field_5 ?? 0;
    if (!isRoot && n === 0) {
      Object.assign(node, { path: p.join('.'), column_index: columns.length, max_definition_level: d, max_repetition_level: r });
      columns.push({ node, el, lt, physical });
      return node;
    }
    node.children = [];
    for (let k = 0; k < n; k++) node.children.push(build(p, d, r, false));
    return node;
  };
  const schema = build([], 0, 0, true);
  const size = fs.statSync(file).size;
  const doc = dropUndefined({
    file,
    file_size: size,
    footer_length: footerLength,
    version: raw.field_1,
    num_rows: num(raw.field_3),
    created_by: text(raw.field_6),
    key_value_metadata: raw.field_5?.map((kv) => dropUndefined({ key: text(kv.field_1), value: text(kv.field_2) })),
    num_columns: columns.length,
    schema,
    columns: columns.map(({ node }) => ({
      path: node.path, physical_type: node.physical_type, logical_type: node.logical_type,
      max_definition_level: node.max_definition_level, max_repetition_level: node.max_repetition_level,
    })),
    row_groups: (raw.field_4 ?? []).map((rg, ordinal) => dropUndefined({
      ordinal,
      footer_ordinal: rg.field_7,
      num_rows: num(rg.field_3),
      total_byte_size: num(rg.field_2),
      total_compressed_size: num(rg.field_6),
      file_offset: num(rg.field_5),
      sorting_columns: rg.field_4?.map((s) => ({ column_idx: s.field_1, descending: s.field_2, nulls_first: s.field_3 })),
      columns: (rg.field_1 ?? []).map((cc, ci) => {
        const md = cc.field_3 ?? {};
        const col = columns[ci];
        const st = md.field_12;
        let statistics;
        if (st) {
          const useNew = st.field_6 !== undefined || st.field_5 !== undefined;
          const minB = useNew ? st.field_6 : st.field_2;
          const maxB = useNew ? st.field_5 : st.field_1;
          const min = minB !== undefined ? render(minB, col.physical, col.lt, col.el.field_2) : undefined;
          const max = maxB !== undefined ? render(maxB, col.physical, col.lt, col.el.field_2) : undefined;
          statistics = dropUndefined({
            min: min?.text, max: max?.text,
            min_invalid: min?.invalid, max_invalid: max?.invalid,
            min_max_source: min || max ? (useNew ? 'min_value/max_value' : 'min/max (deprecated)') : undefined,
            null_count: num(st.field_3), distinct_count: num(st.field_4),
            is_min_value_exact: st.field_8, is_max_value_exact: st.field_7,
          });
        }
        return dropUndefined({
          path: (md.field_3 ?? []).map(text).join('.'),
          physical_type: TYPES[md.field_1],
          codec: CODECS[md.field_4],
          encodings: (md.field_2 ?? []).map((e) => ENCODINGS[e] ?? String(e)),
          encoding_stats: md.field_13?.map((e) => ({ page_type: PAGE_TYPES[e.field_1], encoding: ENCODINGS[e.field_2], count: e.field_3 })),
          num_values: num(md.field_5),
          total_compressed_size: num(md.field_7),
          total_uncompressed_size: num(md.field_6),
          data_page_offset: num(md.field_9),
          index_page_offset: num(md.field_10),
          dictionary_page_offset: num(md.field_11),
          statistics,
          column_index_offset: num(cc.field_6), column_index_length: cc.field_7,
          offset_index_offset: num(cc.field_4), offset_index_length: cc.field_5,
          bloom_filter_offset: num(md.field_14), bloom_filter_length: md.field_15,
        });
      }),
    })),
  });
  return doc;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [cmd, flag, file] = process.argv.slice(2);
  if (cmd !== 'inspect' || flag !== '--json' || !file) {
    process.stderr.write('usage: node tests/interop/reference_inspect.mjs inspect --json FILE\n');
    process.exit(2);
  }
  try {
    process.stdout.write(JSON.stringify(inspect(file)) + '\n');
  } catch (e) {
    process.stderr.write(`reference_inspect: ${file}: ${e.message}\n`);
    process.exit(1);
  }
}

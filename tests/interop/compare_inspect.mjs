// Compares `pqsift inspect --json FILE` (docs/inspect-json.md) with DuckDB's view of the same
// footer (tools/peers/duckdb_metadata.mjs). Pure functions, no I/O: the driver is
// inspect_vs_duckdb.mjs; selftest.mjs feeds it a reference implementation and mutations of it.
//
// Every normalisation is listed in tests/interop/README.md. In short, values are compared by
// meaning, not by spelling, and only where the two renderings are known to differ in spelling:
//  - integers as BigInt; FLOAT after rounding both to float32, DOUBLE as doubles (Object.is:
//    -0 and +0 differ); DECIMAL exactly (as scaled BigInt); TIME/TIMESTAMP as integer nanoseconds
//    plus a "UTC" flag; BLOB as bytes; strings as text, or as bytes when either side escaped
//    invalid UTF-8; UUID case-insensitively; dotted vs ", "-joined column paths;
//  - DuckDB renders a non-finite FLOAT/DOUBLE bound as NULL: accepted only when the raw footer
//    bytes (decoded independently by hyparquet) hold exactly the non-finite value pqsift shows;
//  - DuckDB reads TIMESTAMP(NANOS, isAdjustedToUTC=true) as a microsecond TIMESTAMPTZ: its bound is
//    pqsift's nanoseconds truncated toward zero to whole microseconds, checked exactly.

const NS = { s: 1000000000n, ms: 1000000n, us: 1000n, ns: 1n };

export class Mismatches {
  constructor() { this.items = []; this.notes = []; }
  add(where, field, duck, ours) {
    this.items.push({ where, field, duckdb: show(duck), pqsift: show(ours) });
  }
  note(where, text) { this.notes.push(`${where}: ${text}`); }
}

function show(v) {
  if (v === undefined) return '(absent)';
  if (v === null) return 'null';
  return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
}

// undefined/null on either side mean "not set"; numbers compared as BigInt when both integral.
function eqScalar(a, b) {
  const an = a === undefined || a === null;
  const bn = b === undefined || b === null;
  if (an || bn) return an && bn;
  if (typeof a === 'number' || typeof a === 'bigint' || typeof b === 'number' || typeof b === 'bigint') {
    try { return BigInt(a) === BigInt(b); } catch { return false; }
  }
  return a === b;
}

function check(m, where, field, duck, ours) {
  if (!eqScalar(duck, ours)) m.add(where, field, duck, ours);
}

// ---------------------------------------------------------------------------------------------
// Value parsing
// ---------------------------------------------------------------------------------------------

function parseInteger(s) {
  if (typeof s !== 'string' || !/^[-+]?\d+$/.test(s)) return undefined;
  return BigInt(s);
}

function parseFloatText(s) {
  if (typeof s !== 'string') return undefined;
  const t = s.trim().toLowerCase();
  if (t === 'nan' || t === '+nan' || t === '-nan') return NaN;
  if (['inf', '+inf', 'infinity', '+infinity'].includes(t)) return Infinity;
  if (['-inf', '-infinity'].includes(t)) return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}

// "-12.30" -> { unscaled: -1230n, scale: 2 }
function parseDecimal(s) {
  if (typeof s !== 'string') return undefined;
  const m = /^([-+]?)(\d+)(?:\.(\d*))?$/.exec(s.trim());
  if (!m) return undefined;
  const frac = m[3] ?? '';
  const v = BigInt(m[2] + frac);
  return { unscaled: m[1] === '-' ? -v : v, scale: frac.length };
}

function decimalEqual(a, b) {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return false;
  const scale = Math.max(x.scale, y.scale);
  return x.unscaled * 10n ** BigInt(scale - x.scale) === y.unscaled * 10n ** BigInt(scale - y.scale);
}

const UTC_SUFFIX = /(\+00(:?00)?|Z|\s?UTC)$/i;

function fractionToNs(frac) {
  if (!frac) return 0n;
  if (frac.length > 9) return undefined;
  return BigInt(frac.padEnd(9, '0'));
}

// "HH:MM:SS[.f]" (optional UTC suffix) -> { ns, utc }
function parseTime(s) {
  if (typeof s !== 'string') return undefined;
  let t = s.trim();
  const utc = UTC_SUFFIX.test(t);
  t = t.replace(UTC_SUFFIX, '');
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(t);
  if (!m) return undefined;
  const f = fractionToNs(m[4]);
  if (f === undefined) return undefined;
  return { ns: ((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n + BigInt(m[3])) * NS.s + f, utc };
}

// Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1n : 0n;
  const era = (y >= 0n ? y : y - 399n) / 400n;
  const yoe = y - era * 400n;
  const mp = (m + 9n) % 12n;
  const doy = (153n * mp + 2n) / 5n + d - 1n;
  const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
  return era * 146097n + doe - 719468n;
}

// "YYYY-MM-DD[ T]HH:MM:SS[.f][+00|Z]" -> { ns, utc }. DuckDB's "(BC)" years are not accepted.
function parseTimestamp(s) {
  if (typeof s !== 'string') return undefined;
  let t = s.trim();
  const utc = UTC_SUFFIX.test(t);
  t = t.replace(UTC_SUFFIX, '');
  const m = /^(-?\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(t);
  if (!m) return undefined;
  const f = fractionToNs(m[7]);
  if (f === undefined) return undefined;
  const days = daysFromCivil(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]));
  const secs = ((days * 24n + BigInt(m[4])) * 60n + BigInt(m[5])) * 60n + BigInt(m[6]);
  return { ns: secs * NS.s + f, utc };
}

// DuckDB's Blob::ToString: printable ASCII as itself, every other byte as \xNN.
function duckBlobBytes(s) {
  const out = [];
  for (let i = 0; i < s.length;) {
    if (s[i] === '\\' && s[i + 1] === 'x' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 2, i + 4))) {
      out.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      out.push(...Buffer.from(s[i], 'utf8'));
      i += 1;
    }
  }
  return Buffer.from(out);
}

// Text with invalid bytes escaped as \xNN (pqsift) or all non-ASCII escaped (DuckDB) -> bytes.
function escapedTextBytes(s) {
  const out = [];
  for (let i = 0; i < s.length;) {
    if (s[i] === '\\' && s[i + 1] === 'x' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 2, i + 4))) {
      out.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      const cp = s.codePointAt(i);
      const ch = String.fromCodePoint(cp);
      out.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
    }
  }
  return Buffer.from(out);
}

function hexBytes(s) {
  if (typeof s !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(s)) return undefined;
  return Buffer.from(s.slice(2), 'hex');
}

// ---------------------------------------------------------------------------------------------
// The kind of a leaf, from DuckDB's parquet_schema row
// ---------------------------------------------------------------------------------------------

export function leafKind(schemaRow) {
  const t = (schemaRow.duckdb_type ?? '').toUpperCase();
  const lt = schemaRow.logical_type ?? '';
  const nanos = /NANOS=NanoSeconds/.test(lt);
  if (t === 'BOOLEAN') return { kind: 'bool' };
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/.test(t)) return { kind: 'int' };
  if (t === 'FLOAT') return { kind: 'float32' };
  if (t === 'DOUBLE') return { kind: 'float64' };
  if (t.startsWith('DECIMAL')) return { kind: 'decimal' };
  if (t === 'DATE') return { kind: 'date' };
  if (t === 'TIME' || t === 'TIME_NS' || t === 'TIME WITH TIME ZONE') return { kind: 'time' };
  if (t.startsWith('TIMESTAMP')) {
    // DuckDB types with nanosecond precision carry "_NS"; anything else holds microseconds.
    const duckNanos = t.includes('_NS');
    return { kind: 'timestamp', fileNanos: nanos, duckMicrosOnly: nanos && !duckNanos };
  }
  if (t === 'VARCHAR' || t === 'JSON') return { kind: 'text' };
  if (t === 'BLOB') return { kind: 'blob' };
  if (t === 'UUID') return { kind: 'uuid' };
  return { kind: 'other', duckdbType: t };
}

function truncTowardZero(a, b) { return a / b; } // BigInt division truncates toward zero

// Compares one bound. Returns true when equal after the documented normalisation.
function boundEqual(kind, duck, ours, ctx) {
  switch (kind.kind) {
    case 'bool': return duck === ours;
    case 'int': {
      const a = parseInteger(duck); const b = parseInteger(ours);
      return a !== undefined && b !== undefined && a === b;
    }
    case 'float32': case 'float64': {
      const a = parseFloatText(duck); const b = parseFloatText(ours);
      if (a === undefined || b === undefined) return false;
      return kind.kind === 'float32' ? Object.is(Math.fround(a), Math.fround(b)) : Object.is(a, b);
    }
    case 'decimal': return decimalEqual(duck, ours);
    case 'date': return typeof ours === 'string' && duck === ours;
    case 'time': {
      const a = parseTime(duck); const b = parseTime(ours);
      return !!a && !!b && a.ns === b.ns;
    }
    case 'timestamp': {
      const a = parseTimestamp(duck); const b = parseTimestamp(ours);
      if (!a || !b || a.utc !== b.utc) return false;
      if (kind.duckMicrosOnly) {
        const oursMicros = truncTowardZero(b.ns, NS.us);
        if (a.ns % NS.us !== 0n) return false;
        if (a.ns / NS.us === oursMicros) {
          if (b.ns % NS.us !== 0n) ctx.usedNanosTruncation = true;
          return true;
        }
        return false;
      }
      return a.ns === b.ns;
    }
    case 'text': {
      if (duck === ours) return true;
      if (typeof ours !== 'string') return false;
      return escapedTextBytes(duck).equals(escapedTextBytes(ours));
    }
    case 'blob': {
      const b = hexBytes(ours);
      return !!b && duckBlobBytes(duck).equals(b);
    }
    case 'uuid': return typeof ours === 'string' && duck.toLowerCase() === ours.toLowerCase();
    default: return duck === ours;
  }
}

const NON_FINITE = new Set(['nan', '+nan', '-nan', 'inf', '+inf', '-inf', 'infinity', '+infinity', '-infinity']);

// ---------------------------------------------------------------------------------------------
// Schema helpers
// ---------------------------------------------------------------------------------------------

// DuckDB's parquet_schema rows are the footer's flat schema list in order. Rebuild paths and
// levels independently of pqsift.
function duckLeaves(schemaRows) {
  const leaves = [];
  let pos = 0;
  const walk = (prefix, defLevel, repLevel, isRoot) => {
    const row = schemaRows[pos++];
    if (!row) throw new Error('DuckDB schema list ends early');
    const rep = row.repetition_type;
    const d = isRoot ? 0 : defLevel + (rep === 'REQUIRED' ? 0 : 1);
    const r = isRoot ? 0 : repLevel + (rep === 'REPEATED' ? 1 : 0);
    const p = isRoot ? [] : [...prefix, row.name];
    const n = row.num_children ?? 0;
    if (!isRoot && n === 0) { leaves.push({ row, path: p.join('.'), def: d, rep: r }); return; }
    for (let k = 0; k < n; k++) walk(p, d, r, false);
  };
  if (schemaRows.length) walk([], 0, 0, true);
  return leaves;
}

function flattenOurs(node, out = []) {
  out.push(node);
  for (const c of node?.children ?? []) flattenOurs(c, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The comparison
// ---------------------------------------------------------------------------------------------

// duck: output of duckdbMetadata(); ours: parsed pqsift JSON; raw: rawFooter() (hyparquet) or
// undefined. Returns a Mismatches object.
export function compareInspect(duck, ours, raw) {
  const m = new Mismatches();
  const ctx = {};
  const fm = duck.file_metadata[0];
  if (!fm) { m.add('file', 'parquet_file_metadata', 'no row', 'n/a'); return m; }
  if (typeof ours !== 'object' || ours === null) { m.add('file', 'json', 'object', ours); return m; }

  // ---- file level
  check(m, 'file', 'num_rows', fm.num_rows, ours.num_rows);
  check(m, 'file', 'row_groups.length', fm.num_row_groups, Array.isArray(ours.row_groups) ? ours.row_groups.length : undefined);
  check(m, 'file', 'version', fm.format_version, ours.version);
  check(m, 'file', 'created_by', fm.created_by, ours.created_by);
  check(m, 'file', 'file_size', fm.file_size_bytes, ours.file_size);
  check(m, 'file', 'footer_length', fm.footer_size, ours.footer_length);

  const duckKv = duck.kv_metadata.map((r) => ({ key: r.key?.utf8, value: r.value?.utf8 }));
  const ourKv = ours.key_value_metadata ?? [];
  check(m, 'file', 'key_value_metadata.length', duckKv.length, ourKv.length);
  for (let i = 0; i < Math.min(duckKv.length, ourKv.length); i++) {
    check(m, `file kv[${i}]`, 'key', duckKv[i].key, ourKv[i].key);
    // DuckDB shows an unset value as an empty blob; pqsift omits it.
    const ov = ourKv[i].value ?? (duckKv[i].value === '' ? '' : undefined);
    check(m, `file kv[${i}] ${duckKv[i].key}`, 'value', duckKv[i].value, ov);
  }

  // ---- schema
  const leaves = duckLeaves(duck.schema);
  check(m, 'schema', 'num_columns', leaves.length, ours.num_columns);
  check(m, 'schema', 'columns.length', leaves.length, ours.columns?.length);
  const ourNodes = flattenOurs(ours.schema);
  check(m, 'schema', 'number of schema elements', duck.schema.length, ourNodes.length);
  for (let i = 0; i < Math.min(duck.schema.length, ourNodes.length); i++) {
    const d = duck.schema[i];
    const o = ourNodes[i] ?? {};
    const where = `schema[${i}] ${d.name}`;
    check(m, where, 'name', d.name, o.name);
    const isLeaf = (d.num_children ?? 0) === 0 && i > 0;
    check(m, where, 'children', isLeaf ? undefined : (d.num_children ?? 0), isLeaf ? o.children?.length : (o.children?.length ?? 0));
    if (i > 0) check(m, where, 'repetition', d.repetition_type, o.repetition);
    check(m, where, 'physical_type', d.type, o.physical_type);
    check(m, where, 'converted_type', d.converted_type, o.converted_type);
    check(m, where, 'type_length', d.type === 'FIXED_LEN_BYTE_ARRAY' ? d.type_length : undefined,
          d.type === 'FIXED_LEN_BYTE_ARRAY' ? o.type_length : undefined);
    check(m, where, 'field_id', d.field_id, o.field_id);
  }
  for (let i = 0; i < Math.min(leaves.length, ours.columns?.length ?? 0); i++) {
    const l = leaves[i];
    const c = ours.columns[i];
    const where = `columns[${i}] ${l.path}`;
    check(m, where, 'path', l.path, c.path);
    check(m, where, 'physical_type', l.row.type, c.physical_type);
    check(m, where, 'max_definition_level', l.def, c.max_definition_level);
    check(m, where, 'max_repetition_level', l.rep, c.max_repetition_level);
  }

  // ---- row groups and column chunks
  const byRg = new Map();
  for (const r of duck.metadata) {
    if (!byRg.has(r.row_group_id)) byRg.set(r.row_group_id, []);
    byRg.get(r.row_group_id)[r.column_id] = r;
  }
  const ourRgs = Array.isArray(ours.row_groups) ? ours.row_groups : [];
  for (let g = 0; g < Math.min(fm.num_row_groups, ourRgs.length); g++) {
    const dcols = byRg.get(g) ?? [];
    const org = ourRgs[g] ?? {};
    const first = dcols[0];
    const wg = `rg${g}`;
    check(m, wg, 'ordinal', g, org.ordinal);
    if (first) {
      check(m, wg, 'num_rows', first.row_group_num_rows, org.num_rows);
      check(m, wg, 'total_byte_size', first.row_group_bytes, org.total_byte_size);
      check(m, wg, 'total_compressed_size', first.row_group_compressed_bytes, org.total_compressed_size);
      check(m, wg, 'columns.length', first.row_group_num_columns, org.columns?.length);
    }
    const ocols = org.columns ?? [];
    for (let c = 0; c < Math.min(dcols.length, ocols.length); c++) {
      const d = dcols[c];
      const o = ocols[c] ?? {};
      const dpath = d.path_in_schema.split(', ').join('.');
      const where = `rg${g} ${dpath}`;
      check(m, where, 'path', dpath, o.path);
      check(m, where, 'physical_type', d.type, o.physical_type);
      check(m, where, 'codec', d.compression, o.codec);
      check(m, where, 'encodings', d.encodings, Array.isArray(o.encodings) ? o.encodings.join(', ') : o.encodings);
      for (const f of ['num_values', 'total_compressed_size', 'total_uncompressed_size', 'data_page_offset',
                       'dictionary_page_offset', 'index_page_offset', 'bloom_filter_offset', 'bloom_filter_length']) {
        check(m, where, f, d[f], o[f]);
      }
      ctx.chunks = (ctx.chunks ?? 0) + 1;
      compareStats(m, ctx, where, d, o.statistics, leaves[c], raw?.rowGroups?.[g]?.[c]?.stats);
    }
  }
  m.boundsCompared = ctx.bounds ?? 0;
  m.chunksCompared = ctx.chunks ?? 0;
  if (ctx.usedNanosTruncation) {
    m.note('file', 'TIMESTAMP(NANOS, UTC) bounds compared at DuckDB\'s microsecond precision (truncated toward zero)');
  }
  if (ctx.nonFinite) m.note('file', `${ctx.nonFinite} non-finite float bound(s) DuckDB shows as NULL checked against the raw footer`);
  return m;
}

function compareStats(m, ctx, where, d, s, leaf, rawStats) {
  const st = s ?? {};
  check(m, where, 'statistics.null_count', d.stats_null_count, st.null_count);
  check(m, where, 'statistics.distinct_count', d.stats_distinct_count, st.distinct_count);
  check(m, where, 'statistics.is_min_value_exact', d.min_is_exact, st.is_min_value_exact);
  check(m, where, 'statistics.is_max_value_exact', d.max_is_exact, st.is_max_value_exact);

  const kind = leaf ? leafKind(leaf.row) : { kind: 'other' };
  // Which footer fields pqsift says it rendered; DuckDB shows both pairs separately.
  const deprecated = st.min_max_source === 'min/max (deprecated)';
  if ((st.min !== undefined || st.max !== undefined) && !['min_value/max_value', 'min/max (deprecated)'].includes(st.min_max_source)) {
    m.add(where, 'statistics.min_max_source', '"min_value/max_value" or "min/max (deprecated)"', st.min_max_source);
  }
  if (deprecated && (d.stats_min_value !== null || d.stats_max_value !== null)) {
    m.add(where, 'statistics.min_max_source', 'min_value/max_value are set', st.min_max_source);
  }
  for (const side of ['min', 'max']) {
    // What DuckDB shows for the field pqsift should have used: min_value, else deprecated min.
    const duckValue = d[`stats_${side}_value`];
    const duckDeprecated = d[`stats_${side}`];
    let expected = duckValue !== null ? duckValue : duckDeprecated;
    let rawField = rawStats && (rawStats[`${side}_value`] !== undefined ? rawStats[`${side}_value`] : rawStats[side]);
    if (deprecated) { expected = duckDeprecated; rawField = rawStats?.[side]; }
    const ourValue = st[side];
    const field = `statistics.${side}`;
    if (expected === null || expected === undefined) {
      if (ourValue === undefined) continue;
      // DuckDB shows non-finite FLOAT/DOUBLE bounds as NULL: check the raw bytes instead.
      if ((kind.kind === 'float32' || kind.kind === 'float64') && typeof ourValue === 'string' &&
          NON_FINITE.has(ourValue.toLowerCase())) {
        const rv = rawFloatValue(rawField, kind.kind);
        const ov = parseFloatText(ourValue);
        if (rv !== undefined && !Number.isFinite(rv) && Object.is(rv, ov) ||
            (rv !== undefined && Number.isNaN(rv) && Number.isNaN(ov))) {
          ctx.nonFinite = (ctx.nonFinite ?? 0) + 1;
          continue;
        }
        m.add(where, field, `NULL (raw footer: ${rv === undefined ? 'absent' : String(rv)})`, ourValue);
        continue;
      }
      m.add(where, field, expected ?? null, ourValue);
      continue;
    }
    if (ourValue === undefined) { m.add(where, field, expected, undefined); continue; }
    ctx.bounds = (ctx.bounds ?? 0) + 1;
    if (!boundEqual(kind, expected, ourValue, ctx)) m.add(where, `${field} [${kind.kind}]`, expected, ourValue);
  }
}

function rawFloatValue(bytes, kind) {
  if (!(bytes instanceof Uint8Array)) return undefined;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'float32' && bytes.length === 4) return v.getFloat32(0, true);
  if (kind === 'float64' && bytes.length === 8) return v.getFloat64(0, true);
  return undefined;
}

export const _internals = { parseTimestamp, parseTime, parseDecimal, decimalEqual, duckBlobBytes, escapedTextBytes, parseFloatText, daysFromCivil };

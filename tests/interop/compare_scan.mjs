// The value comparison of scan_vs_duckdb.mjs, as pure functions (no processes, no files):
//
//   parseJsonLine(text)            a lossless JSON parser: numbers keep their source text (JNum),
//                                  objects keep member order, duplicate keys and raw spans (JObj)
//   typeDesc(duckdbType)           DuckDB's column type as a plain, serialisable descriptor
//   canonDuck(desc, value)         DuckDB's value (@duckdb/node-api) -> canonical string
//   canonOurs(desc, json)          pqsift's JSON Lines value        -> canonical string
//   canonCsv(desc, field)          a *_expect.csv field             -> canonical string
//   compareTables(duck, ours, o)   cell by cell; returns mismatches and counts
//
// One canonical form per kind of value, so the two readers' different spellings of the same value
// compare equal and nothing else does. What each normalisation is, and why: README.md.
// canonOurs never guesses: a pqsift value of the wrong JSON shape for the type becomes
// "!bad(...)", which equals nothing DuckDB can produce, so it is reported.

// ---------------------------------------------------------------------------------------------
// Lossless JSON
// ---------------------------------------------------------------------------------------------

export class JNum {
  constructor(text) { this.text = text; }
}

// members: [[key, value, rawStart, rawEnd, keyStart, keyEnd], ...] in document order (duplicates
// kept); `src` is the parsed text, so src.slice(rawStart, rawEnd) is the member value's exact text
// and src.slice(keyStart, keyEnd) the key's (quotes included).
export class JObj {
  constructor(members, src) { this.members = members; this.src = src; }
  rawKey(i) { return this.src.slice(this.members[i][4], this.members[i][5]); }
  get(key) { const m = this.members.find((x) => x[0] === key); return m ? m[1] : undefined; }
  raw(i) { return this.src.slice(this.members[i][2], this.members[i][3]); }
}

const NUMBER_RE = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const CONTROL_RE = /[\u0000-\u001f]/;

export function parseJsonLine(src) {
  let i = 0;
  const n = src.length;
  const fail = (what) => { throw new Error(`invalid JSON at character ${i}: ${what}`); };
  const ws = () => {
    for (let c = src.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = src.charCodeAt(++i));
  };
  function str() {
    i++; // opening quote
    const close = src.indexOf('"', i);
    if (close < 0) fail('unterminated string');
    const esc = src.indexOf('\\', i);
    if (esc < 0 || esc > close) { // fast path: no escapes
      const out = src.slice(i, close);
      if (CONTROL_RE.test(out)) fail('control character in string');
      i = close + 1;
      return out;
    }
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) fail('unterminated string');
      const c = src.charCodeAt(i);
      if (c === 34) { out += src.slice(start, i); i++; return out; }
      if (c < 0x20) fail('control character in string');
      if (c === 92) {
        out += src.slice(start, i);
        const e = src[i + 1];
        i += 2;
        if (e === 'n') out += '\n'; else if (e === 't') out += '\t'; else if (e === 'r') out += '\r';
        else if (e === 'b') out += '\b'; else if (e === 'f') out += '\f'; else if (e === '"') out += '"';
        else if (e === '\\') out += '\\'; else if (e === '/') out += '/';
        else if (e === 'u') {
          const h = src.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(h, 16));
          i += 4;
        } else fail('bad escape');
        start = i;
        continue;
      }
      i++;
    }
  }
  function value() {
    ws();
    const c = src.charCodeAt(i);
    if (c === 123) { // {
      i++;
      const members = [];
      ws();
      if (src.charCodeAt(i) === 125) { i++; return new JObj(members, src); }
      for (;;) {
        ws();
        if (src.charCodeAt(i) !== 34) fail('expected a key');
        const keyStart = i;
        const k = str();
        const keyEnd = i;
        ws();
        if (src.charCodeAt(i) !== 58) fail('expected :');
        i++;
        ws();
        const start = i;
        const v = value();
        members.push([k, v, start, i, keyStart, keyEnd]);
        ws();
        const d = src.charCodeAt(i);
        if (d === 44) { i++; continue; }
        if (d === 125) { i++; return new JObj(members, src); }
        fail('expected , or }');
      }
    }
    if (c === 91) { // [
      i++;
      const items = [];
      ws();
      if (src.charCodeAt(i) === 93) { i++; return items; }
      for (;;) {
        items.push(value());
        ws();
        const d = src.charCodeAt(i);
        if (d === 44) { i++; continue; }
        if (d === 93) { i++; return items; }
        fail('expected , or ]');
      }
    }
    if (c === 34) return str();
    if (c === 110 && src.startsWith('null', i)) { i += 4; return null; }
    if (c === 116 && src.startsWith('true', i)) { i += 4; return true; }
    if (c === 102 && src.startsWith('false', i)) { i += 5; return false; }
    const start = i;
    for (let d = c; (d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69; d = src.charCodeAt(++i));
    const text = src.slice(start, i);
    if (!NUMBER_RE.test(text)) fail(`unexpected ${JSON.stringify(text || src[i])}`);
    return new JNum(text);
  }
  const v = value();
  ws();
  if (i !== n) fail('trailing characters');
  return v;
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

// typeId names of @duckdb/node-api's DuckDBTypeId.
const TYPE_NAMES = {
  1: 'BOOLEAN', 2: 'TINYINT', 3: 'SMALLINT', 4: 'INTEGER', 5: 'BIGINT', 6: 'UTINYINT', 7: 'USMALLINT',
  8: 'UINTEGER', 9: 'UBIGINT', 10: 'FLOAT', 11: 'DOUBLE', 12: 'TIMESTAMP', 13: 'DATE', 14: 'TIME',
  15: 'INTERVAL', 16: 'HUGEINT', 32: 'UHUGEINT', 17: 'VARCHAR', 18: 'BLOB', 19: 'DECIMAL', 20: 'TIMESTAMP_S',
  21: 'TIMESTAMP_MS', 22: 'TIMESTAMP_NS', 23: 'ENUM', 24: 'LIST', 25: 'STRUCT', 26: 'MAP', 33: 'ARRAY',
  27: 'UUID', 28: 'UNION', 29: 'BIT', 30: 'TIME_TZ', 31: 'TIMESTAMP_TZ', 36: 'SQLNULL', 39: 'TIME_NS',
  40: 'GEOMETRY', 41: 'VARIANT',
};

export function typeDesc(t) {
  const kind = TYPE_NAMES[t.typeId] ?? `TYPE${t.typeId}`;
  const d = { kind };
  if (t.alias) d.alias = t.alias;
  if (kind === 'DECIMAL') { d.width = t.width; d.scale = t.scale; }
  if (kind === 'LIST' || kind === 'ARRAY') d.item = typeDesc(t.valueType);
  if (kind === 'STRUCT') d.fields = t.entryNames.map((n, k) => [n, typeDesc(t.entryTypes[k])]);
  if (kind === 'MAP') { d.key = typeDesc(t.keyType); d.value = typeDesc(t.valueType); }
  return d;
}

const INTEGER_KINDS = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER',
  'UBIGINT', 'HUGEINT', 'UHUGEINT']);
const TS_UNIT_NS = { TIMESTAMP_S: 1000000000n, TIMESTAMP_MS: 1000000n, TIMESTAMP: 1000n, TIMESTAMP_TZ: 1000n, TIMESTAMP_NS: 1n };
const MAX_SAFE = 9007199254740991n;

// ---------------------------------------------------------------------------------------------
// Canonical scalar forms
// ---------------------------------------------------------------------------------------------

function canonFloat(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (Object.is(v, -0)) return '-0';
  return String(v); // shortest round-trip text of the double: one text per value
}

// An exact decimal text ("-12.3400", "1e5" is not accepted) as a reduced canonical string.
function canonDecimalText(text) {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (!m) return null;
  return canonDecimalParts(m[1] === '-', m[2], m[3] ?? '');
}
function canonDecimalParts(negative, intDigits, fracDigits) {
  let intPart = intDigits.replace(/^0+(?=.)/, '');
  let frac = fracDigits.replace(/0+$/, '');
  const zero = /^0*$/.test(intPart) && frac === '';
  if (zero) return 'dec:0';
  return `dec:${negative ? '-' : ''}${intPart}${frac ? '.' + frac : ''}`;
}
function canonDecimalBigInt(value, scale) {
  const neg = value < 0n;
  let digits = (neg ? -value : value).toString();
  if (scale <= 0) return canonDecimalParts(neg, digits + '0'.repeat(-scale), '');
  digits = digits.padStart(scale + 1, '0');
  return canonDecimalParts(neg, digits.slice(0, -scale), digits.slice(-scale));
}

const pad2 = (n) => String(n).padStart(2, '0');

// Days since 1970-01-01 of a proleptic Gregorian date (any year).
function daysFromCivil(y, m, d) {
  y = BigInt(y) - (m <= 2 ? 1n : 0n);
  const era = (y >= 0n ? y : y - 399n) / 400n;
  const yoe = y - era * 400n;
  const mp = BigInt((m + 9) % 12);
  const doy = (153n * mp + 2n) / 5n + BigInt(d) - 1n;
  const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
  return era * 146097n + doe - 719468n;
}

// pqsift: "YYYY-MM-DD" (or a signed year of 5+ digits) -> days (BigInt) or null.
function parseDate(text) {
  const m = /^([+-]?\d{4,})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  return daysFromCivil(Number(m[1]), mo, d);
}

// "HH:MM:SS[.f{1,9}]" -> nanoseconds (BigInt) or null.
function parseClock(text) {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(text);
  if (!m) return null;
  const h = BigInt(m[1]);
  const mi = BigInt(m[2]);
  const s = BigInt(m[3]);
  if (mi > 59n || s > 59n || h > 24n) return null;
  return ((h * 60n + mi) * 60n + s) * 1000000000n + BigInt((m[4] ?? '').padEnd(9, '0'));
}

// pqsift timestamp "YYYY-MM-DD HH:MM:SS[.f][+00]" -> { ns, tz, fracDigits } or null.
function parseTimestamp(text) {
  const m = /^(\S+) (\d{2}:\d{2}:\d{2}(?:\.(\d{1,9}))?)(\+00)?$/.exec(text);
  if (!m) return null;
  const days = parseDate(m[1]);
  const clock = parseClock(m[2]);
  if (days === null || clock === null) return null;
  return { ns: days * 86400000000000n + clock, tz: m[4] !== undefined, fracDigits: (m[3] ?? '').length };
}

const hexOf = (bytes) => Buffer.from(bytes).toString('hex');

// ---------------------------------------------------------------------------------------------
// DuckDB values
// ---------------------------------------------------------------------------------------------

export function canonDuck(d, v) {
  if (v === null || v === undefined) return 'null';
  switch (d.kind) {
    case 'BOOLEAN': return v === true ? 'true' : v === false ? 'false' : `!duck(${v})`;
    case 'FLOAT': case 'DOUBLE': return `f:${canonFloat(v)}`;
    case 'DECIMAL': return canonDecimalBigInt(v.value, v.scale);
    case 'DATE': return `date:${v.days}`;
    case 'TIME': return `time:${BigInt(v.micros) * 1000n}`;
    case 'TIME_NS': return `time:${BigInt(v.nanos)}`;
    case 'TIME_TZ': return `time:${BigInt(v.micros) * 1000n}` + (v.offset === 0 ? '' : `@${v.offset}`);
    case 'TIMESTAMP': case 'TIMESTAMP_TZ': case 'TIMESTAMP_MS': case 'TIMESTAMP_S': case 'TIMESTAMP_NS': {
      const raw = v.micros ?? v.millis ?? v.seconds ?? v.nanos;
      return `ts:${BigInt(raw) * TS_UNIT_NS[d.kind]}${d.kind === 'TIMESTAMP_TZ' ? 'Z' : ''}`;
    }
    case 'VARCHAR': case 'ENUM': return `s:${JSON.stringify(v)}`;
    case 'BLOB': return `x:${hexOf(v.bytes)}`;
    case 'UUID': return `x:${v.toString().replaceAll('-', '')}`;
    case 'INTERVAL': {
      // Parquet INTERVAL: 12 bytes, little-endian uint32 months, days, milliseconds.
      const micros = BigInt(v.micros);
      if (micros % 1000n !== 0n || micros < 0n || v.months < 0 || v.days < 0) return `!interval(${v})`;
      const b = Buffer.alloc(12);
      b.writeUInt32LE(v.months, 0);
      b.writeUInt32LE(v.days, 4);
      b.writeUInt32LE(Number(micros / 1000n), 8);
      return `x:${b.toString('hex')}`;
    }
    case 'LIST': case 'ARRAY': return `[${v.items.map((x) => canonDuck(d.item, x)).join(',')}]`;
    case 'STRUCT': return `{${d.fields.map(([n, t]) => `${JSON.stringify(n)}:${canonDuck(t, v.entries[n])}`).join(',')}}`;
    case 'MAP': return `map[${v.entries.map((e) => `${canonDuck(d.key, e.key)}=>${canonDuck(d.value, e.value)}`).join(',')}]`;
    case 'SQLNULL': return 'null';
    default:
      if (INTEGER_KINDS.has(d.kind)) return `i:${BigInt(v)}`;
      return `!duck-unsupported(${d.kind})`;
  }
}

// ---------------------------------------------------------------------------------------------
// pqsift's JSON Lines values (src/cli/output/batch_writer.h)
// ---------------------------------------------------------------------------------------------

const show = (j) => (j instanceof JNum ? j.text : j instanceof JObj ? '{...}' : Array.isArray(j) ? '[...]' : JSON.stringify(j));
const bad = (what, j) => `!bad(${what}: ${String(show(j)).slice(0, 80)})`;

// `ctx.coarsened` counts values compared at DuckDB's coarser timestamp unit (README: "TIMESTAMP
// with nanoseconds read by DuckDB as microseconds").
export function canonOurs(d, j, ctx = {}) {
  if (j === null) return 'null';
  switch (d.kind) {
    case 'BOOLEAN': return j === true ? 'true' : j === false ? 'false' : bad('boolean', j);
    case 'FLOAT': case 'DOUBLE': {
      let v;
      if (j instanceof JNum) v = Number(j.text);
      else if (j === 'NaN') v = NaN;
      else if (j === 'Infinity') v = Infinity;
      else if (j === '-Infinity') v = -Infinity;
      else return bad('float', j);
      return `f:${canonFloat(d.kind === 'FLOAT' ? Math.fround(v) : v)}`;
    }
    case 'DECIMAL': {
      let text;
      if (j instanceof JNum) {
        text = j.text;
        // JSON numbers are read as doubles by most readers: pqsift quotes precision > 15.
        if (text.replace(/[-.]/g, '').replace(/^0+/, '').length > 15) return bad('decimal number with more than 15 digits', j);
      } else if (typeof j === 'string') text = j;
      else return bad('decimal', j);
      return canonDecimalText(text) ?? bad('decimal', j);
    }
    case 'DATE': {
      const days = typeof j === 'string' ? parseDate(j) : null;
      return days === null ? bad('date', j) : `date:${days}`;
    }
    case 'TIME': case 'TIME_NS': case 'TIME_TZ': {
      // pqsift's TIME has no zone marker (the Arrow time types have no zone); DuckDB's TIME_TZ
      // must then be at offset 0 (canonDuck appends the offset otherwise).
      const ns = typeof j === 'string' ? parseClock(j) : null;
      return ns === null ? bad('time', j) : `time:${ns}`;
    }
    case 'TIMESTAMP': case 'TIMESTAMP_TZ': case 'TIMESTAMP_MS': case 'TIMESTAMP_S': case 'TIMESTAMP_NS': {
      const t = typeof j === 'string' ? parseTimestamp(j) : null;
      if (t === null) return bad('timestamp', j);
      let ns = t.ns;
      const unit = TS_UNIT_NS[d.kind];
      if (unit === 1000n && t.fracDigits > 6) {
        // DuckDB reads TIMESTAMP(NANOS, UTC) and INT96 as microseconds, truncating toward zero.
        ctx.coarsened = (ctx.coarsened ?? 0) + 1;
        ns = (ns / 1000n) * 1000n; // BigInt division truncates toward zero
      }
      return `ts:${ns}${t.tz ? 'Z' : ''}`;
    }
    case 'VARCHAR': case 'ENUM': return typeof j === 'string' ? `s:${JSON.stringify(j)}` : bad('string', j);
    case 'BLOB': case 'UUID': case 'INTERVAL': {
      if (typeof j !== 'string' || !/^0x([0-9a-f]{2})*$/.test(j)) return bad('binary as 0x hex', j);
      return `x:${j.slice(2)}`;
    }
    case 'LIST': case 'ARRAY':
      return Array.isArray(j) ? `[${j.map((x) => canonOurs(d.item, x, ctx)).join(',')}]` : bad('list', j);
    case 'STRUCT': {
      if (!(j instanceof JObj)) return bad('struct', j);
      const keys = j.members.map((m) => m[0]);
      const want = d.fields.map((f) => f[0]);
      if (keys.join('\u0000') !== want.join('\u0000')) return bad(`struct keys ${JSON.stringify(keys)}`, j);
      return `{${d.fields.map(([n, t], k) => `${JSON.stringify(n)}:${canonOurs(t, j.members[k][1], ctx)}`).join(',')}}`;
    }
    case 'MAP': {
      // String keys: a JSON object (duplicates kept in order); other keys: [{"key":k,"value":v}].
      if (j instanceof JObj) {
        if (d.key.kind !== 'VARCHAR') return bad('map with non-string keys as an object', j);
        return `map[${j.members.map(([k, v]) => `s:${JSON.stringify(k)}=>${canonOurs(d.value, v, ctx)}`).join(',')}]`;
      }
      if (!Array.isArray(j)) return bad('map', j);
      if (d.key.kind === 'VARCHAR') return bad('map with string keys as an array', j);
      const entries = [];
      for (const e of j) {
        if (!(e instanceof JObj) || e.members.length !== 2 || e.members[0][0] !== 'key' || e.members[1][0] !== 'value') {
          return bad('map entry', e);
        }
        entries.push(`${canonOurs(d.key, e.members[0][1], ctx)}=>${canonOurs(d.value, e.members[1][1], ctx)}`);
      }
      return `map[${entries.join(',')}]`;
    }
    case 'SQLNULL': return bad('a value where DuckDB has only NULL', j);
    default:
      if (INTEGER_KINDS.has(d.kind)) {
        if (j instanceof JNum) {
          if (!/^-?(0|[1-9][0-9]*)$/.test(j.text)) return bad('integer', j);
          const v = BigInt(j.text);
          if (v > MAX_SAFE || v < -MAX_SAFE) return bad('integer beyond 2^53 as a JSON number', j);
          return `i:${v}`;
        }
        if (typeof j === 'string' && /^-?(0|[1-9][0-9]*)$/.test(j)) {
          const v = BigInt(j);
          if (v <= MAX_SAFE && v >= -MAX_SAFE) return bad('safe integer as a string', j);
          return `i:${v}`;
        }
        return bad('integer', j);
      }
      return `!unsupported(${d.kind})`;
  }
}

// ---------------------------------------------------------------------------------------------
// *_expect.csv fields (parquet-testing): "" quoted = empty string, empty unquoted = NULL
// ---------------------------------------------------------------------------------------------

export function parseCsv(text) {
  const rows = [];
  let row = [];
  let i = 0;
  while (i < text.length) {
    let field;
    if (text[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quoted CSV field');
        v += text.slice(i, q);
        i = q + 1;
        if (text[i] === '"') { v += '"'; i++; } else break;
      }
      field = { text: v, quoted: true };
    } else {
      let e = i;
      while (e < text.length && text[e] !== ',' && text[e] !== '\n' && text[e] !== '\r') e++;
      field = { text: text.slice(i, e), quoted: false };
      i = e;
    }
    row.push(field);
    if (text[i] === ',') { i++; continue; }
    if (text[i] === '\r') i++;
    if (text[i] === '\n' || i >= text.length) { i++; rows.push(row); row = []; continue; }
    throw new Error(`bad CSV at ${i}`);
  }
  return rows;
}

export function canonCsv(d, f) {
  if (!f.quoted && f.text === '') return 'null';
  const t = f.text;
  if (INTEGER_KINDS.has(d.kind)) return /^-?\d+$/.test(t) ? `i:${BigInt(t)}` : `!csv(${t})`;
  switch (d.kind) {
    case 'VARCHAR': case 'ENUM': return `s:${JSON.stringify(t)}`;
    case 'BOOLEAN': return t === 'true' ? 'true' : t === 'false' ? 'false' : `!csv(${t})`;
    case 'FLOAT': return `f:${canonFloat(Math.fround(Number(t)))}`;
    case 'DOUBLE': return `f:${canonFloat(Number(t))}`;
    case 'DATE': { const days = parseDate(t); return days === null ? `!csv(${t})` : `date:${days}`; }
    default: return `!csv-unsupported(${d.kind})`;
  }
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

// duck: { names, descs, canon: [row][col] canonical strings }
// ours: { rows: [JObj] } (parsed JSON Lines)
// Returns { cells, mismatches: [{column, row, ours, duck}], structural: [strings], coarsened }.
// `allowed(column)` says whether a column's mismatches are expected (scan_allowlist.mjs); they
// are returned with allowed: true and do not count as failures.
export function compareTables(duck, ours, { allowed = () => false, maxPerColumn = 20 } = {}) {
  const structural = [];
  const mismatches = [];
  const ctx = { coarsened: 0 };
  let cells = 0;
  const nDuck = duck.canon.length;
  const nOurs = ours.rows.length;
  if (nDuck !== nOurs) structural.push(`row count: pqsift ${nOurs}, duckdb ${nDuck}`);
  const perColumn = new Map();
  const n = Math.min(nDuck, nOurs);
  for (let r = 0; r < n; r++) {
    const row = ours.rows[r];
    if (!(row instanceof JObj)) { structural.push(`row ${r}: not a JSON object`); break; }
    const keys = row.members.map((m) => m[0]);
    if (keys.length !== duck.names.length || keys.some((k, c) => k !== duck.names[c])) {
      structural.push(`row ${r}: columns ${JSON.stringify(keys)}, duckdb ${JSON.stringify(duck.names)}`);
      break;
    }
    for (let c = 0; c < duck.names.length; c++) {
      cells++;
      const want = duck.canon[r][c];
      const got = canonOurs(duck.descs[c], row.members[c][1], ctx);
      if (got !== want) {
        const name = duck.names[c];
        const count = (perColumn.get(name) ?? 0) + 1;
        perColumn.set(name, count);
        if (count <= maxPerColumn) {
          mismatches.push({ column: name, row: r, ours: row.raw(c), oursCanon: got, duck: want, allowed: allowed(name) });
        }
      }
    }
  }
  const counts = [...perColumn].map(([column, count]) => ({ column, count, allowed: allowed(column) }));
  return { cells, mismatches, counts, structural, coarsened: ctx.coarsened };
}

// Random Parquet files and random `--where` predicates for differential.mjs (pure generation: no
// processes; DuckDB is used only through the connection the caller passes in).
//
//   rngFor(...parts)                   a deterministic generator seeded by a tuple (seed, file, case)
//   generateFileSpec(rng, n)           a random schema, row count, null and order profile per
//                                      column, and a writer (DuckDB, Polars or parquet-wasm) with
//                                      its options; returns a JSON-serialisable description
//   writeFile(con, spec, file)         writes it (DuckDB generates the rows from SQL; Polars and
//                                      parquet-wasm rewrite DuckDB's file with their own options)
//   profileFile(con, file)             the leaf columns DuckDB sees, with the values that occur,
//                                      global and per-row-group min/max, null counts
//   generateCase(rng, profile)         { where, select } : a typed predicate over the profile's
//                                      columns and an output projection
//
// Every generated row is a function of (row index, seeds) evaluated by DuckDB with hash(): the
// description's `sql` regenerates the file's rows exactly.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');
const { typeDesc } = await import(pathToFileURL(path.resolve(here, '../interop/compare_scan.mjs')));

// ---------------------------------------------------------------------------------------------
// Random numbers
// ---------------------------------------------------------------------------------------------

// FNV-1a over the parts, then a final avalanche: a 32-bit seed per (seed, file, case) tuple.
export function hash32(...parts) {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0001')) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

export class Rng {
  constructor(seed) { this.s = seed >>> 0; }
  u32() { // mulberry32
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  float() { return this.u32() / 4294967296; }
  int(lo, hi) { return lo + Math.floor(this.float() * (hi - lo + 1)); }
  chance(p) { return this.float() < p; }
  pick(a) { return a[Math.floor(this.float() * a.length)]; }
  // [[weight, value], ...]
  weighted(pairs) {
    let total = 0;
    for (const [w] of pairs) total += w;
    let x = this.float() * total;
    for (const [w, v] of pairs) { if ((x -= w) < 0) return v; }
    return pairs.at(-1)[1];
  }
  // A BigInt in [0, n] (n >= 0).
  bigBelowOrEq(n) {
    if (n <= 0n) return 0n;
    let r = 0n;
    for (let k = 0; k < 5; k++) r = (r << 32n) | BigInt(this.u32());
    return r % (n + 1n);
  }
  shuffle(a) {
    for (let i = a.length - 1; i > 0; i--) { const j = this.int(0, i); [a[i], a[j]] = [a[j], a[i]]; }
    return a;
  }
}
export const rngFor = (...parts) => new Rng(hash32(...parts));

// ---------------------------------------------------------------------------------------------
// Column generators: SQL expressions of the row index i (BIGINT, from range(n)) and hash().
// ---------------------------------------------------------------------------------------------

const INT_RANGE = {
  BIGINT: [-(2n ** 63n), 2n ** 63n - 1n], INTEGER: [-(2n ** 31n), 2n ** 31n - 1n],
  SMALLINT: [-32768n, 32767n], TINYINT: [-128n, 127n], UBIGINT: [0n, 2n ** 64n - 1n], UINTEGER: [0n, 2n ** 32n - 1n],
};
const big = (x) => `(${x})::HUGEINT`;

// The ordering "key" of a column: an integer expression and a bound on its number of values.
function makeKey(rng, order, n, H) {
  const rows = BigInt(Math.max(n, 1));
  switch (order) {
    case 'asc': return { sql: 'i', span: rows };
    case 'desc': return { sql: `(${n - 1} - i)`, span: rows };
    case 'clustered': {
      const blk = rng.pick([50, 500, 3000]);
      const jit = rng.pick([1, 5, 100, blk * 2]);
      return { sql: `((i // ${blk}) * ${blk} + ${H('k')} % ${jit})`, span: rows + BigInt(jit) };
    }
    case 'lowcard': {
      const k = rng.int(1, 8);
      return { sql: `(${H('k')} % ${k})`, span: BigInt(k) };
    }
    case 'drift': {
      // Low cardinality, unsorted, and a value set that changes every `blk` rows: block b holds
      // the values of residue b % m, so row groups overlap in min/max but differ in their
      // dictionaries (what the dictionary stage can prune and the statistics cannot).
      const k = rng.int(1, 4);
      const m = rng.int(2, 4);
      const blk = rng.pick([100, 333, 1000, 2048]);
      return { sql: `((${H('k')} % ${k}) * ${m} + (i // ${blk}) % ${m})`, span: BigInt(k * m), drift: true };
    }
    default: { // random
      const span = rng.pick([rows, rows, 10n, 1000n, 2n ** 31n, 2n ** 62n]);
      return { sql: `(${H('k')} % ${span})`, span };
    }
  }
}

// An integer in [tmin, tmax] (a HUGEINT expression) that follows the key's order: lo + key * step,
// with lo placed so the column sometimes touches the domain's ends; the whole domain when asked.
function intOverKey(rng, tmin, tmax, key, steps, H) {
  const width = tmax - tmin;
  if (key.full) {
    // H is a UBIGINT: beyond 2^64 values, spread it over the domain by multiplying (a HUGEINT
    // literal above 2^127 would silently become a DOUBLE).
    if (width + 1n > 2n ** 64n) return `(${big(tmin + width / 2n)} + (${big(H('v'))} - ${2n ** 63n}) * ${width / 2n ** 64n})`;
    return `(${big(tmin)} + ${big(H('v'))} % ${width + 1n})`;
  }
  let step = rng.pick(steps);
  while (step > 1n && (key.span - 1n) * step > width) step /= 7n;
  if (step < 1n) step = 1n;
  if ((key.span - 1n) * step > width) return `(${big(tmin)} + (${big(key.sql)} * ${step}) % ${width + 1n})`;
  const room = width - (key.span - 1n) * step;
  const mid = -((key.span - 1n) * step) / 2n;
  const clamp = (x) => (x < tmin ? tmin : x > tmin + room ? tmin + room : x);
  const lo = rng.weighted([[3, clamp(0n)], [3, clamp(mid)], [4, tmin + rng.bigBelowOrEq(room)], [1, tmin], [1, tmin + room],
                           [2, clamp(BigInt(rng.int(-1000000, 1000000)))]]);
  return `(${big(lo)} + ${big(key.sql)} * ${step})`;
}

const WORDS = ['', 'a', 'ab', 'abc', 'abd', 'apple', 'apricot', 'banana', 'Zebra', 'zulu', 'é', 'éclair', '日本',
  '😀', 'ab%c', 'a_b', "o'neil", 'back\\slash', 'ABC', 'Apple', ' lead'];
const sqlStr = (s) => `'${s.replaceAll("'", "''")}'`;
const sqlList = (a) => `[${a.map(sqlStr).join(', ')}]`;

function stringOverKey(rng, key, n) {
  if (key.drift) {
    // One word per key value, so each block's value set is its own.
    const words = rng.shuffle([...WORDS]).slice(0, Number(key.span));
    return { style: 'drift', sql: `(${sqlList(words)})[(${key.sql} % ${words.length} + 1)::BIGINT]`, words };
  }
  const style = rng.weighted([[3, 'sorted'], [3, 'lowcard'], [3, 'random'], [2, 'nonascii'], [1, 'long'], [1, 'emptymix']]);
  const digits = String(key.span).length;
  switch (style) {
    case 'sorted': {
      const pfx = rng.pick(['', 'k', 'ab_', 'é', 'zz', 'a%']);
      return { style, sql: `printf('${pfx.replaceAll("'", "''").replaceAll('%', '%%')}%0${digits}d', ${key.sql})` };
    }
    case 'lowcard': {
      const words = rng.shuffle([...WORDS]).slice(0, rng.int(1, 8));
      return { style, sql: `(${sqlList(words)})[(${key.sql} % ${words.length} + 1)::BIGINT]`, words };
    }
    case 'random': {
      const pfx = rng.pick(['', '', 'abc_', 'ab', 'x']);
      return { style, sql: `(${sqlStr(pfx)} || md5((${key.sql})::VARCHAR)[1:${rng.int(1, 12)}])` };
    }
    case 'nonascii': {
      const words = ['é', '日本', '😀', 'Ωmega', 'a', 'ß', 'Z', 'ü'];
      return { style, sql: `((${sqlList(words)})[(${key.sql} % ${words.length} + 1)::BIGINT] || printf('%04d', ${key.sql} % 10000))` };
    }
    case 'long': {
      const len = rng.int(40, 300);
      return { style, sql: `(repeat(${sqlStr(rng.pick(['x', 'é', 'm']))}, ${len}) || printf('%0${digits}d', ${key.sql}))` };
    }
    default:
      return { style, sql: `CASE WHEN ${key.sql} % 4 = 0 THEN '' ELSE 'e' || (${key.sql})::VARCHAR END` };
  }
}

const TICKS = {
  // [min, max, steps, wrap(expr)]: temporal types as integers of their unit, kept inside
  // 1900..2200 (dates) or what the unit can hold, so every value prints as a plain date.
  DATE: [-25567n, 84000n, [1n, 1n, 7n, 30n, 365n], (e) => `(DATE '1970-01-01' + (${e})::INTEGER)`],
  TIMESTAMP: [-2208988800000000n, 7258118400000000n, [1n, 1000n, 1000000n, 60000000n, 3600000000n, 86400000001n],
    (e) => `(TIMESTAMP '1970-01-01' + to_microseconds((${e})::BIGINT))`],
  TIMESTAMP_MS: [-2208988800000000n, 7258118400000000n, [1000n, 1000000n, 3600000000n, 86400000000n],
    (e) => `(TIMESTAMP '1970-01-01' + to_microseconds((${e})::BIGINT))::TIMESTAMP_MS`],
  TIMESTAMP_NS: [-2208988800000000000n, 7258118400000000000n, [1n, 1000n, 1000001n, 3600000000000n],
    (e) => `make_timestamp_ns((${e})::BIGINT)`],
  TIMESTAMPTZ: [-2208988800000000n, 7258118400000000n, [1n, 1000000n, 3600000000n, 86400000000n],
    (e) => `(TIMESTAMPTZ '1970-01-01 00:00:00+00' + to_microseconds((${e})::BIGINT))`],
  TIME: [0n, 86399999999n, [1n, 1000000n, 60000000n, 3600000000n], (e) => `(TIME '00:00:00' + to_microseconds((${e})::BIGINT))`],
};

// The value expression of one column of `type`; `key` is its ordering key.
function valueSql(rng, type, key, n, H) {
  if (INT_RANGE[type]) {
    const [tmin, tmax] = INT_RANGE[type];
    let sql = `${intOverKey(rng, tmin, tmax, key, [1n, 1n, 1n, 2n, 3n, 10n, 1000n, 123457n, 10n ** 12n, 10n ** 17n], H)}::${type}`;
    if (rng.chance(0.15)) {
      const m = rng.pick([7, 97, 1009]);
      sql = `CASE ${H('x')} % ${m} WHEN 0 THEN ${big(tmin)}::${type} WHEN 1 THEN ${big(tmax)}::${type} ELSE ${sql} END`;
    }
    return sql;
  }
  const dec = /^DECIMAL\((\d+),(\d+)\)$/.exec(type);
  if (dec) {
    const [p, s] = [Number(dec[1]), Number(dec[2])];
    const maxU = 10n ** BigInt(p) - 1n;
    const unscaled = intOverKey(rng, -maxU, maxU, key, [1n, 7n, 100n, 10n ** BigInt(s), 12345n, 10n ** BigInt(p - 6)], H);
    let sql = `((${unscaled})::DECIMAL(38,0) * 0.${'0'.repeat(s - 1)}1)::${type}`;
    if (rng.chance(0.1)) sql = `CASE ${H('x')} % 211 WHEN 0 THEN -${maxU / 10n ** BigInt(s)}.${'9'.repeat(s)}::${type} WHEN 1 THEN ${maxU / 10n ** BigInt(s)}.${'9'.repeat(s)}::${type} ELSE ${sql} END`;
    return sql;
  }
  if (type === 'DOUBLE' || type === 'FLOAT') {
    const base = rng.pick(['0', '-1000.5', '1e10', '-3.25e-5', '123456.789', String(rng.int(-1000000, 1000000))]);
    const step = rng.pick(['1', '0.5', '0.1', '0.001', '1e7', '(1.0/3)', '-0.25', '2.5e-8']);
    let sql = key.full ? `((${H('v')} % 2000001)::DOUBLE - 1000000) * ${step}::DOUBLE`
      : `(${base}::DOUBLE + (${key.sql})::DOUBLE * ${step}::DOUBLE)`;
    const specials = rng.weighted([[5, 'none'], [3, 'all'], [1, 'nan'], [1, 'zeros'], [1, 'inf'], [1, 'nanblocks']]);
    const m = rng.pick([5, 37, 500]);
    if (specials === 'all') {
      sql = `CASE ${H('s')} % ${m} WHEN 0 THEN 'nan'::DOUBLE WHEN 1 THEN 'inf'::DOUBLE WHEN 2 THEN '-inf'::DOUBLE WHEN 3 THEN '-0.0'::DOUBLE WHEN 4 THEN 0.0::DOUBLE ELSE ${sql} END`;
    } else if (specials === 'nan') sql = `CASE WHEN ${H('s')} % ${m} = 0 THEN 'nan'::DOUBLE ELSE ${sql} END`;
    else if (specials === 'zeros') sql = `CASE ${H('s')} % 3 WHEN 0 THEN '-0.0'::DOUBLE WHEN 1 THEN 0.0::DOUBLE ELSE ${sql} END`;
    else if (specials === 'inf') sql = `CASE ${H('s')} % ${m} WHEN 0 THEN 'inf'::DOUBLE WHEN 1 THEN '-inf'::DOUBLE ELSE ${sql} END`;
    else if (specials === 'nanblocks') sql = `CASE WHEN (i // ${rng.pick([100, 1000, 2048])}) % 3 = 1 THEN 'nan'::DOUBLE ELSE ${sql} END`;
    return type === 'FLOAT' ? `(${sql})::FLOAT` : `(${sql})`;
  }
  if (type === 'VARCHAR') return stringOverKey(rng, key, n).sql;
  if (type === 'BLOB') {
    return rng.weighted([
      [2, `encode(${stringOverKey(rng, key, n).sql})`],
      [1, `unhex(printf('%016x', ${key.sql}))`],
      [1, `unhex(md5((${key.sql})::VARCHAR)[1:${2 * rng.int(1, 6)}])`],
    ]);
  }
  if (type === 'BOOLEAN') return rng.chance(0.5) ? `(${key.sql} % 2 = 0)` : `(${key.sql} >= ${key.span / 2n})`;
  const [tmin, tmax, steps, wrap] = TICKS[type];
  return wrap(intOverKey(rng, tmin, tmax, key, steps, H));
}

const KINDS = [
  // [weight, short name, DuckDB type, forced orders]
  [3, 'i64s', 'BIGINT', ['asc', 'desc']], [3, 'i64', 'BIGINT'], [2, 'i32', 'INTEGER'], [1, 'i16', 'SMALLINT'],
  [1, 'i8', 'TINYINT'], [1, 'u64', 'UBIGINT'], [1, 'u32', 'UINTEGER'], [3, 'f64', 'DOUBLE'], [2, 'f32', 'FLOAT'],
  [1, 'd9', 'DECIMAL(9,2)'], [1, 'd18', 'DECIMAL(18,4)'], [1, 'd38', 'DECIMAL(38,10)'], [4, 's', 'VARCHAR'],
  [1, 'bin', 'BLOB'], [1, 'b', 'BOOLEAN'], [2, 'dt', 'DATE'], [1, 'ts', 'TIMESTAMP'], [1, 'tsms', 'TIMESTAMP_MS'],
  [1, 'tsns', 'TIMESTAMP_NS'], [1, 'tstz', 'TIMESTAMPTZ'], [1, 'tm', 'TIME'], [2, 'st', 'STRUCT'],
];

function nullWrap(rng, sql, type, n, H) {
  const mode = rng.weighted([[8, 'none'], [6, 'some'], [3, 'runs'], [2, 'all'], [1, 'firsthalf']]);
  const castType = type === 'STRUCT' ? null : type;
  const nul = castType ? `NULL::${castType}` : 'NULL';
  switch (mode) {
    case 'some': { const p = rng.pick([1, 10, 100, 500, 900]); return { mode: `${p / 10}%`, sql: `CASE WHEN ${H('n')} % 1000 < ${p} THEN ${nul} ELSE ${sql} END` }; }
    case 'runs': { const blk = rng.pick([10, 300, 2048]); return { mode: `runs of ${blk}`, sql: `CASE WHEN (i // ${blk}) % 3 = 0 THEN ${nul} ELSE ${sql} END` }; }
    case 'all': return { mode: 'all', sql: `CASE WHEN TRUE THEN ${nul} ELSE ${sql} END` };
    case 'firsthalf': return { mode: 'first half', sql: `CASE WHEN i < ${Math.floor(n / 2)} THEN ${nul} ELSE ${sql} END` };
    default: return { mode: 'none', sql };
  }
}

function columnSpec(rng, name, kind, n, fileSeed) {
  const [, short, type, forced] = kind;
  const H = (tag) => `hash(i, ${fileSeed}, '${name}.${tag}')`;
  const order = forced ? rng.pick(forced)
    : rng.weighted([[3, 'asc'], [1, 'desc'], [4, 'random'], [2, 'clustered'], [1, 'lowcard'], [2, 'drift']]);
  const key = makeKey(rng, order, n, H);
  if (order === 'random' && rng.chance(0.2)) key.full = true;
  if (type === 'STRUCT') {
    const Ha = (tag) => H(`a.${tag}`);
    const Hb = (tag) => H(`b.${tag}`);
    const ka = makeKey(rng, rng.pick(['asc', 'random', 'clustered']), n, Ha);
    const kb = makeKey(rng, rng.pick(['asc', 'random', 'lowcard']), n, Hb);
    const a = nullWrap(rng, valueSql(rng, 'INTEGER', ka, n, Ha), 'INTEGER', n, Ha);
    const b = nullWrap(rng, valueSql(rng, 'VARCHAR', kb, n, Hb), 'VARCHAR', n, Hb);
    const outer = nullWrap(rng, `{'a': ${a.sql}, 'b': ${b.sql}}`, 'STRUCT', n, H);
    return { name, short, type: 'STRUCT(a INTEGER, b VARCHAR)', order: 'fields', nulls: `${outer.mode} (a: ${a.mode}, b: ${b.mode})`, sql: outer.sql };
  }
  const nw = nullWrap(rng, valueSql(rng, type, key, n, H), type, n, H);
  return { name, short, type, order: key.full ? 'random (whole domain)' : order, nulls: nw.mode, sql: nw.sql };
}

export function generateFileSpec(rng, index, seed) {
  const rows = rng.weighted([[2, 0], [3, rng.int(1, 50)], [14, rng.int(50, 3000)], [5, rng.int(3000, 12000)], [1, rng.int(12000, 50000)]]);
  const ncols = rng.int(2, 6);
  const fileSeed = hash32('file', seed, index);
  const columns = [];
  for (let c = 0; c < ncols; c++) {
    const kind = rng.weighted(KINDS.map((k) => [k[0], k]));
    columns.push(columnSpec(rng, `c${c}_${kind[1]}`, kind, rows, fileSeed));
  }
  const sql = `SELECT ${columns.map((c) => `${c.sql} AS ${c.name}`).join(',\n  ')}\nFROM range(${rows}) t(i)`;
  const writer = rng.weighted([[4, 'duckdb'], [3, 'polars'], [3, 'parquet-wasm']]);
  let options;
  if (writer === 'duckdb') {
    options = {
      COMPRESSION: rng.pick(['snappy', 'zstd', 'uncompressed', 'gzip', 'lz4']),
      ROW_GROUP_SIZE: rng.pick([2048, 2048, 4096, 10000, 122880]),
      PARQUET_VERSION: rng.pick(['V1', 'V2']),
    };
  } else if (writer === 'polars') {
    options = {
      compression: rng.pick(['snappy', 'zstd', 'lz4', 'uncompressed']),
      statistics: rng.weighted([[3, 'full'], [2, true], [1, false]]),
      rowGroupSize: rng.pick([100, 256, 1000, 2500, 5000]),
    };
    // No small data pages from Polars: nodejs-polars 0.25.2 then writes wrong chunk statistics
    // (the min/max of one page, null counts summed once per page) and null_pages for pages
    // without bounds. Small pages with a page index come from parquet-wasm (arrow-rs) below.
  } else {
    options = {
      compression: rng.pick(['SNAPPY', 'ZSTD', 'UNCOMPRESSED', 'LZ4_RAW', 'GZIP']),
      statistics: rng.weighted([[3, 'Page'], [2, 'Chunk'], [1, 'None']]),
      version: rng.pick(['V1', 'V2']),
      dictionary: rng.chance(0.6),
      maxRowGroupSize: rng.pick([100, 333, 1000, 2048, 5000]),
    };
    if (rng.chance(0.7)) options.dataPageSizeLimit = rng.pick([256, 512, 2048]);
  }
  return { index, seed, name: `f${String(index).padStart(4, '0')}`, rows, writer, options, columns, sql };
}

// ---------------------------------------------------------------------------------------------
// Writers
// ---------------------------------------------------------------------------------------------

let pl = null;
let pw = null;
async function loadWriters() {
  pl ??= (await import(pathToFileURL(path.join(peers, 'node_modules/nodejs-polars/bin/index.js')))).default;
  pw ??= await import(pathToFileURL(path.join(peers, 'node_modules/parquet-wasm/node/parquet_wasm.js')));
}

const sqlPath = (p) => `'${p.replaceAll("'", "''")}'`;

export async function writeFile(con, spec, file) {
  if (spec.writer === 'duckdb') {
    const o = spec.options;
    await con.run(`COPY (${spec.sql}) TO ${sqlPath(file)} (FORMAT parquet, COMPRESSION ${o.COMPRESSION}, ` +
                  `ROW_GROUP_SIZE ${o.ROW_GROUP_SIZE}, PARQUET_VERSION ${o.PARQUET_VERSION})`);
    return;
  }
  await loadWriters();
  const tmp = file.replace(/\.parquet$/, '.duckdb-tmp.parquet'); // Polars wants the extension
  await con.run(`COPY (${spec.sql}) TO ${sqlPath(tmp)} (FORMAT parquet, COMPRESSION uncompressed)`);
  try {
    if (spec.writer === 'polars') {
      const df = pl.readParquet(tmp);
      await df.lazy().sinkParquet(file, { ...spec.options }).collect(); // it adds its defaults to the object
    } else {
      const o = spec.options;
      const table = pw.readParquet(new Uint8Array(fs.readFileSync(tmp)));
      let b = new pw.WriterPropertiesBuilder()
        .setCompression(pw.Compression[o.compression])
        .setStatisticsEnabled(pw.EnabledStatistics[o.statistics])
        .setWriterVersion(pw.WriterVersion[o.version])
        .setDictionaryEnabled(o.dictionary)
        .setMaxRowGroupSize(o.maxRowGroupSize);
      if (o.dataPageSizeLimit) b = b.setDataPageSizeLimit(o.dataPageSizeLimit);
      fs.writeFileSync(file, pw.writeParquet(table, b.build()));
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Profiles: what DuckDB reads back, which is what the predicates are typed against
// ---------------------------------------------------------------------------------------------

const INT_KINDS = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'HUGEINT']);
const KIND_CATEGORY = {
  DOUBLE: 'float', FLOAT: 'float', DECIMAL: 'dec', VARCHAR: 'str', BLOB: 'blob', BOOLEAN: 'bool', DATE: 'date',
  TIMESTAMP: 'ts', TIMESTAMP_MS: 'ts', TIMESTAMP_S: 'ts', TIMESTAMP_NS: 'ts', TIMESTAMP_TZ: 'ts', TIME: 'time', TIME_NS: 'time',
};
const categoryOf = (d) => (INT_KINDS.has(d.kind) ? 'int' : KIND_CATEGORY[d.kind] ?? null);

// A DuckDB value (node-api) as a plain comparable JS value of its category: BigInt ticks for
// integers, decimals (unscaled), dates (days), timestamps (ns), times (ns); numbers for floats.
function plainValue(d, v) {
  if (v === null || v === undefined) return null;
  switch (categoryOf(d)) {
    case 'int': return BigInt(v);
    case 'dec': return BigInt(v.value);
    case 'float': return v;
    case 'str': return v;
    case 'blob': return Buffer.from(v.bytes).toString('latin1');
    case 'bool': return v;
    case 'date': return BigInt(v.days);
    case 'ts': {
      if (v.nanos !== undefined) return BigInt(v.nanos);
      if (v.millis !== undefined) return BigInt(v.millis) * 1000000n;
      if (v.seconds !== undefined) return BigInt(v.seconds) * 1000000000n;
      return BigInt(v.micros) * 1000n;
    }
    case 'time': return v.nanos !== undefined ? BigInt(v.nanos) : BigInt(v.micros) * 1000n;
    default: return null;
  }
}

export async function profileFile(con, file) {
  const src = `read_parquet(${sqlPath(file)})`;
  const head = await con.runAndReadAll(`SELECT * FROM ${src} LIMIT 0`);
  const names = head.columnNames();
  const descs = head.columnTypes().map(typeDesc);
  const meta = (await con.runAndReadAll(
    `SELECT row_group_id, any_value(row_group_num_rows) FROM parquet_metadata(${sqlPath(file)}) GROUP BY 1 ORDER BY 1`)).getRows();
  const rowGroups = meta.map((r) => Number(r[1]));
  const leaves = [];
  names.forEach((n, c) => {
    const d = descs[c];
    if (d.kind === 'STRUCT') {
      for (const [f, fd] of d.fields) if (categoryOf(fd)) leaves.push({ path: `${n}.${f}`, top: n, desc: fd, cat: categoryOf(fd) });
    } else if (categoryOf(d)) leaves.push({ path: n, top: n, desc: d, cat: categoryOf(d) });
  });
  // Row group boundaries, for the per-row-group min/max (the edges where pruning bugs hide).
  const bounds = [];
  let start = 0;
  for (const r of rowGroups) { bounds.push([start, start + r]); start += r; }
  const rgTable = bounds.length
    ? `(VALUES ${bounds.map(([s, e], k) => `(${k}, ${s}, ${e})`).join(', ')}) rg(id, s, e)` : null;
  for (const leaf of leaves) {
    const x = leaf.path;
    const sortable = leaf.cat !== 'bool';
    const stats = (await con.runAndReadAll(
      `SELECT count(${x}), count(*)${sortable ? `, min(${x}), max(${x})` : ''} FROM ${src}`)).getRows()[0];
    leaf.nonNull = Number(stats[0]);
    leaf.rows = Number(stats[1]);
    leaf.min = sortable ? plainValue(leaf.desc, stats[2]) : null;
    leaf.max = sortable ? plainValue(leaf.desc, stats[3]) : null;
    const sample = (await con.runAndReadAll(
      `SELECT DISTINCT ${x} AS v FROM ${src} WHERE ${x} IS NOT NULL ORDER BY hash(v) LIMIT 12`)).getRows();
    leaf.sample = sample.map((r) => plainValue(leaf.desc, r[0]));
    leaf.rgEdges = [];
    if (sortable && rgTable && leaf.nonNull > 0) {
      const edges = (await con.runAndReadAll(
        `SELECT min(${x}), max(${x}) FROM (SELECT *, file_row_number AS frn FROM read_parquet(${sqlPath(file)}, file_row_number = true)) t ` +
        `JOIN ${rgTable} ON frn >= rg.s AND frn < rg.e GROUP BY rg.id ORDER BY hash(rg.id) LIMIT 8`)).getRows();
      for (const [lo, hi] of edges) {
        if (lo !== null) leaf.rgEdges.push(plainValue(leaf.desc, lo), plainValue(leaf.desc, hi));
      }
    }
  }
  return { file, names, descs, rowGroups, leaves };
}

// ---------------------------------------------------------------------------------------------
// Literals
// ---------------------------------------------------------------------------------------------

// Float literal text that DuckDB and a strtod-like parser read as the same double: plain digits
// when short (DuckDB reads them as exact DECIMAL, and converts <= 15 digits exactly), otherwise
// exponent form (read as DOUBLE directly).
function floatLiteral(v) {
  if (!Number.isFinite(v)) return null;
  let t = String(v);
  if (Object.is(v, -0)) return '-0.0';
  const digits = t.replace(/e.*$/, '').replace(/[-.]/g, '').replace(/^0+/, '').length;
  if (t.includes('e') || digits > 15) t = v.toExponential();
  return t.replace('e+', 'e');
}
const pad = (n, w = 2) => String(n).padStart(w, '0');
function dateText(days) {
  const d = new Date(Number(days) * 86400000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}
function clockText(nsOfDay, digits) {
  const s = nsOfDay / 1000000000n;
  const frac = nsOfDay % 1000000000n;
  let t = `${pad(s / 3600n)}:${pad((s / 60n) % 60n)}:${pad(s % 60n)}`;
  const f = String(frac).padStart(9, '0').slice(0, digits).replace(/0+$/, '');
  return f ? `${t}.${f}` : t;
}
const DAY_NS = 86400000000000n;
function tsText(ns, digits = 6) {
  let days = ns / DAY_NS;
  let rest = ns % DAY_NS;
  if (rest < 0n) { rest += DAY_NS; days -= 1n; }
  return `${dateText(days)} ${clockText(rest, digits)}`;
}
function decText(unscaled, scale) {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale === 0) return (neg ? '-' : '') + digits;
  digits = digits.padStart(scale + 1, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

// SQL literal text of a plain value of `leaf`'s category (null when it has none).
export function literal(leaf, v) {
  if (v === null) return 'NULL';
  switch (leaf.cat) {
    case 'int': return String(v);
    case 'dec': return decText(v, leaf.desc.scale);
    case 'float': return floatLiteral(v);
    case 'str': return sqlStr(v);
    case 'blob': return /^[\x20-\x5b\x5d-\x7e]*$/.test(v) ? sqlStr(v) : null; // printable ASCII, no backslash
    case 'bool': return v ? 'TRUE' : 'FALSE';
    case 'date': return `DATE '${dateText(v)}'`;
    case 'ts': return `TIMESTAMP '${tsText(v)}'`;
    // No TIME keyword in the filter language: a string, which both sides read as a time.
    case 'time': return v >= 0n && v < DAY_NS ? `'${clockText(v, 6)}'` : null;
    default: return null;
  }
}

function nextFloat(v, up) {
  if (!Number.isFinite(v)) return v;
  if (v === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, v);
  let bits = b.getBigUint64(0);
  bits += (v > 0) === up ? 1n : -1n;
  b.setBigUint64(0, bits);
  return b.getFloat64(0);
}

const TYPE_INT_RANGE = {
  TINYINT: [-128n, 127n], SMALLINT: [-32768n, 32767n], INTEGER: [-(2n ** 31n), 2n ** 31n - 1n],
  BIGINT: [-(2n ** 63n), 2n ** 63n - 1n], UTINYINT: [0n, 255n], USMALLINT: [0n, 65535n], UINTEGER: [0n, 2n ** 32n - 1n],
  UBIGINT: [0n, 2n ** 64n - 1n],
};

// A literal of the leaf's type: a value that occurs, a row group edge, a neighbour of one, a value
// beyond the column's range, or a type extreme. `plain` selects whether the raw value is returned.
function randomValue(rng, leaf) {
  const occurring = [...leaf.sample, ...leaf.rgEdges, ...(leaf.min !== null && leaf.min !== undefined ? [leaf.min, leaf.max] : [])];
  const base = occurring.length ? rng.pick(occurring) : null;
  const choice = rng.weighted([[5, 'occurs'], [4, 'edge'], [4, 'near'], [2, 'outside'], [1, 'extreme']]);
  const edges = [...leaf.rgEdges, leaf.min, leaf.max].filter((x) => x !== null && x !== undefined);
  const pickBase = () => (choice === 'edge' && edges.length ? rng.pick(edges) : base);
  const b = pickBase();
  switch (leaf.cat) {
    case 'int': case 'date': case 'ts': case 'time': case 'dec': {
      const unit = leaf.cat === 'ts' ? rng.pick([1000n, 1000n, 1000000000n, DAY_NS])
        : leaf.cat === 'time' ? rng.pick([1000n, 1000000000n]) : 1n;
      if (b === null) return BigInt(rng.int(-100, 100)) * unit;
      if (choice === 'near') return b + (rng.chance(0.5) ? unit : -unit) * BigInt(rng.pick([1, 1, 1, 2, 10]));
      if (choice === 'outside') {
        // dates and timestamps stay within four-digit years (the literal syntax of both dialects)
        const far = BigInt(rng.pick(leaf.cat === 'date' || leaf.cat === 'ts' ? [1, 1000, 30000] : [1, 1000, 1000000])) * unit;
        return rng.chance(0.5) ? (leaf.min ?? b) - far : (leaf.max ?? b) + far;
      }
      if (choice === 'extreme' && leaf.cat === 'int') {
        const r = TYPE_INT_RANGE[leaf.desc.kind];
        if (r) return rng.pick([r[0], r[1], r[0] - 1n, r[1] + 1n, 0n, -1n]);
      }
      return b;
    }
    case 'float': {
      const finite = [...occurring].filter((x) => Number.isFinite(x));
      const fb = Number.isFinite(b) ? b : finite.length ? rng.pick(finite) : rng.int(-10, 10);
      if (choice === 'near') {
        const r = rng.int(0, 3);
        if (r === 0) return nextFloat(fb, rng.chance(0.5));
        if (r === 1 && leaf.desc.kind === 'FLOAT') return Math.fround(nextFloat(Math.fround(fb), true)) || fb;
        return fb + rng.pick([0.5, -0.5, 1, -1, 0.1]);
      }
      if (choice === 'outside') return rng.pick([1e300, -1e300, fb * 1000 + 1, -Math.abs(fb) * 1000 - 1, 3.4e38]);
      if (choice === 'extreme') return rng.pick([0, -0, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE]);
      return fb;
    }
    case 'str': case 'blob': {
      const s = typeof b === 'string' ? b : '';
      if (choice === 'near') {
        const r = rng.int(0, 4);
        if (r === 0) return s + rng.pick(['a', ' ', '~', '\u00ff']);
        if (r === 1) return s.slice(0, Math.max(0, s.length - 1));
        if (r === 2 && s.length) return s.slice(0, -1) + String.fromCodePoint(s.codePointAt(s.length - 1) + 1);
        return s.slice(0, rng.int(0, s.length));
      }
      if (choice === 'outside' || choice === 'extreme') return rng.pick(['', 'A', 'zzzz', '~', '\u00ff', '日本語', ' ', '0']);
      return s;
    }
    case 'bool': return rng.chance(0.5);
    default: return null;
  }
}

// A literal of a finer decimal scale than the column (1.005 against DECIMAL(9,2)), or an integer.
function decimalLiteralVariant(rng, leaf, v) {
  const s = leaf.desc.scale;
  if (rng.chance(0.5)) return decText(v * 10n + BigInt(rng.pick([-5, 5, 1])), s + 1);
  return decText(v / 10n ** BigInt(s), 0);
}

// Other spellings of a literal that both dialects read the same way: a double (exponent) against
// an integer or decimal column (the column is then cast to double), 'nan'/'inf' strings against
// floats, a timestamp against a date column and a date against a timestamp column, date strings.
function literalVariant(rng, leaf, v) {
  switch (leaf.cat) {
    case 'int': return Number(v).toExponential().replace('e+', 'e');
    case 'dec': return Number(decText(v, leaf.desc.scale)).toExponential().replace('e+', 'e');
    case 'float': return rng.pick(["'nan'", "'inf'", "'-inf'"]);
    case 'date': {
      if (rng.chance(0.3)) return `'${dateText(v)}'`;
      const within = rng.pick([0n, 1n, 3600000000000n, DAY_NS - 1000n]);
      return `TIMESTAMP '${tsText(v * DAY_NS + within)}'`;
    }
    case 'ts': {
      const days = v >= 0n ? v / DAY_NS : -((-v + DAY_NS - 1n) / DAY_NS);
      return `DATE '${dateText(days + BigInt(rng.int(0, 1)))}'`;
    }
    default: return null;
  }
}

function literalFor(rng, leaf) {
  for (let tries = 0; tries < 8; tries++) {
    const v = randomValue(rng, leaf);
    if (rng.chance(0.1) && v !== null && (typeof v !== 'number' || Number.isFinite(v))) {
      const t = literalVariant(rng, leaf, v);
      if (t !== null) return t;
    }
    if (leaf.cat === 'dec' && rng.chance(0.2)) return decimalLiteralVariant(rng, leaf, v);
    if (leaf.cat === 'float' && leaf.desc.kind === 'FLOAT' && rng.chance(0.3) && Number.isFinite(Math.fround(v))) {
      // the shortest text of the float32 value (DuckDB casts it to FLOAT, a binder may not)
      for (let p = 1; p <= 9; p++) { const t = v.toPrecision(p); if (Math.fround(Number(t)) === Math.fround(v)) return String(Number(t)).replace('e+', 'e'); }
    }
    const t = literal(leaf, v);
    if (t !== null) return t;
  }
  return literal(leaf, null);
}

// ---------------------------------------------------------------------------------------------
// Predicates
// ---------------------------------------------------------------------------------------------

const CMP = ['=', '!=', '<>', '<', '<=', '>', '>=', '=', '<', '>'];
const ORDERED = new Set(['int', 'dec', 'float', 'str', 'blob', 'date', 'ts', 'time', 'bool']);
const NUMERIC = new Set(['int', 'dec', 'float']);
const TEMPORAL = new Set(['date', 'ts']);
const compatible = (a, b) => a.cat === b.cat || (NUMERIC.has(a.cat) && NUMERIC.has(b.cat)) || (TEMPORAL.has(a.cat) && TEMPORAL.has(b.cat));

function likePattern(rng, leaf) {
  const s = String(randomValue(rng, leaf) ?? '');
  const cut = rng.int(0, s.length);
  const pfx = s.slice(0, cut);
  const kind = rng.weighted([[5, 'prefix'], [2, 'contains'], [2, 'underscore'], [1, 'exact'], [1, 'suffix'], [1, 'escape']]);
  switch (kind) {
    case 'prefix': return pfx + '%';
    case 'contains': return '%' + s.slice(cut, cut + rng.int(1, 3)) + '%';
    case 'underscore': return pfx + '_' + (rng.chance(0.5) ? '%' : '');
    case 'exact': return s;
    case 'suffix': return '%' + s.slice(cut);
    default: return rng.pick(['a\\%', 'back\\%', 'ab\\_%', '%\\\\%']);
  }
}

const flipCase = (s) => [...s].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');

function atom(rng, ctx) {
  const { leaves } = ctx;
  const leaf = rng.pick(leaves);
  const x = !leaf.path.includes('.') && rng.chance(0.05) ? `"${leaf.path}"` : leaf.path;
  const lit = () => literalFor(rng, leaf);
  const forms = [[6, 'cmp'], [2, 'between'], [2, 'in'], [2, 'null'], [1, 'distinct'], [0.3, 'cmpnull'], [0.3, 'const']];
  if (leaf.cat === 'str') forms.push([3, 'like'], [1, 'ilike'], [2, 'starts'], [1, 'regex']);
  if (ORDERED.has(leaf.cat) && leaf.cat !== 'bool') forms.push([2, 'wide']);
  if (leaf.cat === 'bool') forms.push([4, 'bool']);
  if (NUMERIC.has(leaf.cat)) forms.push([2, 'arith'], [0.5, 'cast']);
  if (leaf.cat === 'date' || leaf.cat === 'ts') forms.push([0.5, 'cast'], [0.7, 'datepart'], [0.7, 'interval']);
  if (leaf.cat === 'str' || leaf.cat === 'bool' || NUMERIC.has(leaf.cat)) forms.push([1, 'fn']);
  if (leaves.some((o) => o !== leaf && compatible(o, leaf))) forms.push([2, 'colcol']);
  if (ORDERED.has(leaf.cat)) forms.push([0.5, 'case']);
  const form = rng.weighted(forms);
  switch (form) {
    case 'cmp': {
      const op = rng.pick(CMP);
      return rng.chance(0.1) ? `${lit()} ${op} ${x}` : `${x} ${op} ${lit()}`;
    }
    case 'between': {
      const a = randomValue(rng, leaf);
      const b = randomValue(rng, leaf);
      let [lo, hi] = [a, b];
      const less = (p, q) => (typeof p === 'bigint' || typeof p === 'number' ? p < q : String(p) < String(q));
      if (rng.chance(0.85) && a !== null && b !== null && less(b, a)) [lo, hi] = [b, a];
      const tl = literal(leaf, lo);
      const th = literal(leaf, hi);
      const between = rng.chance(0.15) ? 'NOT BETWEEN' : 'BETWEEN';
      if (tl === null || th === null) return `${x} ${between} ${lit()} AND ${lit()}`;
      return `${x} ${between} ${tl} AND ${th}`;
    }
    case 'in': {
      const items = Array.from({ length: rng.int(1, 5) }, lit);
      if (rng.chance(0.15)) items.splice(rng.int(0, items.length), 0, 'NULL');
      return `${x} ${rng.chance(0.3) ? 'NOT IN' : 'IN'} (${items.join(', ')})`;
    }
    case 'null': return `${x} IS ${rng.chance(0.5) ? 'NOT ' : ''}NULL`;
    case 'wide': {
      // True for whole row groups (the "fully matched" proof, where rows are returned without
      // evaluating the filter): bounds at or beyond the column's or a row group's min/max.
      const edges = [leaf.min, leaf.max, ...leaf.rgEdges].map((v) => (v === null || v === undefined ? null : literal(leaf, v)));
      const [lo, hi] = [edges[0], edges[1]];
      const edge = rng.pick(edges);
      if (lo === null || hi === null || edge === null) return `${x} IS NOT NULL`;
      return rng.pick([`${x} >= ${lo}`, `${x} <= ${hi}`, `${x} BETWEEN ${lo} AND ${hi}`, `${x} >= ${edge}`, `${x} <= ${edge}`,
                       `${x} > ${edge}`, `${x} < ${edge}`, `NOT (${x} < ${lo})`, `${x} != ${edge}`, `(${x} >= ${lo} OR ${x} IS NULL)`]);
    }
    case 'case': {
      // CASE in a condition: searched or simple, with or without ELSE, under a comparison or as
      // the condition itself (pqsift binds it as guarded branches).
      const op = rng.pick(CMP);
      const cond = `${x} ${rng.pick(CMP)} ${lit()}`;
      switch (rng.int(0, 3)) {
        case 0: return `CASE WHEN ${cond} THEN ${lit()} ${rng.chance(0.7) ? `ELSE ${x} ` : ''}END ${op} ${lit()}`;
        case 1: return `CASE ${x} WHEN ${lit()} THEN ${lit()} WHEN ${lit()} THEN ${x} ${rng.chance(0.5) ? `ELSE ${lit()} ` : ''}END ${op} ${lit()}`;
        case 2: return `CASE WHEN ${x} IS NULL THEN ${rng.pick(['TRUE', 'FALSE', 'NULL'])} WHEN ${cond} THEN ${x} ${op} ${lit()} ELSE ${x} IS NOT NULL END`;
        default: return `(CASE WHEN ${cond} THEN ${x} END) IS ${rng.chance(0.5) ? 'NOT ' : ''}NULL`;
      }
    }
    case 'distinct': return `${x} IS ${rng.chance(0.5) ? 'NOT ' : ''}DISTINCT FROM ${rng.chance(0.25) ? 'NULL' : lit()}`;
    case 'cmpnull': return `${x} ${rng.pick(CMP)} NULL`;
    case 'const': return rng.pick(['TRUE', 'FALSE', 'NULL', '1 = 1', '1 > 2']);
    case 'like': case 'ilike': {
      let pat = likePattern(rng, leaf);
      if (form === 'ilike') pat = flipCase(pat);
      const op = form === 'ilike' ? 'ILIKE' : 'LIKE';
      return `${x} ${rng.chance(0.25) ? 'NOT ' : ''}${op} ${sqlStr(pat)}`;
    }
    case 'starts': {
      // starts_with and DuckDB's other substring tests (prefix, suffix, ends_with, contains) on
      // a piece of a value: its start, its end, or its middle.
      const s = String(randomValue(rng, leaf) ?? '');
      const fn = rng.pick(['starts_with', 'starts_with', 'prefix', 'ends_with', 'suffix', 'contains']);
      const len = rng.int(0, Math.min(s.length, 6));
      const at = fn === 'starts_with' || fn === 'prefix' ? 0
        : fn === 'contains' ? rng.int(0, s.length - len) : s.length - len;
      return `${fn}(${x}, ${sqlStr(s.slice(at, at + len))})`;
    }
    case 'regex': {
      // regexp_matches / regexp_full_match and their operators (~, !~, SIMILAR TO), RE2 in both
      // engines: a piece of a value, escaped or with its characters made classes and wildcards,
      // anchored or not, with DuckDB's options.
      const chars = [...String(randomValue(rng, leaf) ?? '')];
      const at = rng.int(0, chars.length);
      const piece = chars.slice(at, at + rng.int(1, 5));
      const quote = (ch) => (/[!-\/:-@[-`{-~]/.test(ch) ? `\\${ch}` : ch);  // ASCII punctuation
      let re = piece.map((ch) => rng.pick([quote(ch), quote(ch), '.', '.?', `[${quote(ch)}x]`])).join('');
      if (rng.chance(0.3)) re = rng.pick([`^${re}`, `${re}$`, `(${re})+`, `${re}|${quote(chars[0] ?? 'a')}`, `.*${re}.*`]);
      const options = rng.pick(['', '', `, 'i'`, `, 'c'`, `, 's'`, `, 'ci'`, `, 'l'`]);
      switch (rng.int(0, 4)) {
        case 4: return rng.chance(0.5)
          ? `regexp_extract(${x}, ${sqlStr(`(${re})`)}, ${rng.pick([0, 1, 2])}) ${rng.pick(CMP)} ${sqlStr(piece.join(''))}`
          : `regexp_replace(${x}, ${sqlStr(re)}, ${sqlStr(rng.pick(['', '#', '<\\0>']))}${rng.pick(['', ", 'g'", ", 'gi'"])}) ${rng.pick(CMP)} ${sqlStr(chars.join(''))}`;
        case 0: return `${rng.chance(0.2) ? 'NOT ' : ''}regexp_matches(${x}, ${sqlStr(re)}${options})`;
        case 1: return `regexp_full_match(${x}, ${sqlStr(re)}${options})`;
        case 2: return `${x} ${rng.pick(['~', '!~'])} ${sqlStr(re)}`;
        default: return `${x} ${rng.chance(0.3) ? 'NOT ' : ''}SIMILAR TO ${sqlStr(re)}`;
      }
    }
    case 'bool': return rng.pick([x, `NOT ${x}`, `${x} = TRUE`, `${x} = FALSE`, `${x} != TRUE`]);
    case 'fn': {
      // DuckDB's value functions: lower/upper (utf8proc's case mappings), length (code points),
      // strlen (bytes), abs, coalesce/ifnull; IS [NOT] TRUE/FALSE.
      const op = rng.pick(CMP);
      const v = randomValue(rng, leaf);
      if (leaf.cat === 'str') {
        const s = String(v ?? '');
        const cased = rng.pick([s, s.toLowerCase(), s.toUpperCase(), flipCase(s)]);
        const chars = [...s];
        const piece = chars.slice(rng.int(0, chars.length), rng.int(0, chars.length + 1)).join('');
        switch (rng.int(0, 7)) {
          case 6: {
            // trim (spaces, or the given characters), strpos, replace.
            const trimmed = rng.pick(['trim', 'ltrim', 'rtrim']);
            return rng.pick([`${trimmed}(${x}) ${op} ${sqlStr(s.trim())}`,
                             `${trimmed}(${x}, ${sqlStr(piece)}) ${op} ${sqlStr(cased)}`,
                             `${rng.pick(['strpos', 'instr'])}(${x}, ${sqlStr(piece)}) ${op} ${rng.int(0, 6)}`,
                             `replace(${x}, ${sqlStr(piece)}, ${sqlStr(rng.pick(['', 'x', 'ÿ']))}) ${op} ${sqlStr(cased)}`]);
          }
          case 7: {
            // || (NULL in, NULL out) and concat (NULLs skipped).
            const joined = rng.pick([`${x} || ${sqlStr(piece)}`, `${sqlStr(piece)} || ${x} || '!'`,
                                     `concat(${x}, ${sqlStr(piece)})`, `concat(${rng.chance(0.3) ? 'NULL, ' : ''}${x}, ${x})`]);
            return rng.chance(0.2) ? `${joined} IS NULL` : `${joined} ${op} ${sqlStr(rng.pick([s + piece, piece + s + '!', s + s, cased]))}`;
          }
          case 0: return `${rng.pick(['lower', 'upper', 'lcase', 'ucase'])}(${x}) ${op} ${sqlStr(cased)}`;
          case 1: return `${rng.pick(['length', 'len', 'char_length', 'strlen'])}(${x}) ${op} ${rng.int(0, 12)}`;
          case 2: return `lower(${x}) ${rng.chance(0.25) ? 'NOT ' : ''}LIKE ${sqlStr(likePattern(rng, leaf).toLowerCase())}`;
          case 3: return `${rng.pick(['coalesce', 'ifnull'])}(${x}, ${sqlStr(cased)}) ${op} ${lit()}`;
          case 4: return `coalesce(upper(${x}), 'NONE') ${op} ${sqlStr(cased)}`;
          default: {
            // substring/left/right with offsets and lengths zero, negative or past either end,
            // against a piece of a value (code points, as DuckDB's).
            // Not an offset before the start with a positive length, nor one past the end with a
            // negative length: DuckDB 1.5 clamps those on ASCII data and not on other strings
            // (substring('x', 3, -1) is 'x' in a table of ASCII strings, '' elsewhere).
            const a = rng.pick([1, 2, 0, -1, -2, -5, 3, 10]);
            let b = rng.pick([1, 2, 3, 0, -1, -2, 8]);
            if ((a < 0 && b > 0) || (a > 1 && b < 0)) b = -b;
            const call = rng.pick([`substring(${x}, ${a}, ${b})`, `substr(${x}, ${a})`, `substring(${x} FROM ${a} FOR ${b})`,
                                   `left(${x}, ${b})`, `right(${x}, ${b})`]);
            return `${call} ${op} ${sqlStr(rng.chance(0.7) ? piece : cased)}`;
          }
        }
      }
      if (leaf.cat === 'bool') {
        return rng.pick([`${x} IS TRUE`, `${x} IS NOT TRUE`, `${x} IS FALSE`, `${x} IS NOT FALSE`,
                         `coalesce(${x}, ${rng.pick(['TRUE', 'FALSE'])})`, `ifnull(${x}, FALSE) = ${rng.pick(['TRUE', 'FALSE'])}`]);
      }
      const magnitude = v === null ? null : typeof v === 'bigint' ? (v < 0n ? -v : v) : Math.abs(v);
      const absLit = magnitude === null ? lit() : literal(leaf, magnitude);
      if (rng.chance(0.15)) return `${rng.chance(0.3) ? 'NOT ' : ''}${rng.pick(['isnan', 'isinf', 'isfinite'])}(${x})`;
      if (rng.chance(0.25)) {
        // floor/ceil/round/trunc (typed as DuckDB's), greatest/least with a literal (NULLs
        // skipped), against a value's neighbourhood.
        const near = v === null ? lit() : literal(leaf, v);
        if (rng.chance(0.2)) {
          // round(x, digits): any digits of a float, 0..scale of a decimal, 0..3 of an integer.
          const digits = leaf.cat === 'float' ? rng.int(-3, 3)
            : leaf.cat === 'dec' ? rng.int(0, leaf.desc.scale) : rng.int(0, 3);
          return `round(${x}, ${digits}) ${op} ${near ?? lit()}`;
        }
        if (rng.chance(0.5)) return `${rng.pick(['floor', 'ceil', 'ceiling', 'round', 'trunc'])}(${x}) ${op} ${near ?? lit()}`;
        return `${rng.pick(['greatest', 'least'])}(${x}, ${rng.chance(0.2) ? 'NULL' : lit()}) ${op} ${near ?? lit()}`;
      }
      if (rng.chance(0.6)) return `abs(${x}) ${op} ${absLit ?? lit()}`;
      const fallback = v === null ? 'NULL' : literal(leaf, v);
      return `coalesce(${x}, ${fallback ?? 'NULL'}) ${op} ${lit()}`;
    }
    case 'cast': {
      if (leaf.cat === 'date') return `CAST(${x} AS TIMESTAMP) ${rng.pick(CMP)} ${literalVariant(rng, leaf, randomValue(rng, leaf))}`;
      if (leaf.cat === 'ts') {
        // The day of a timestamp (DuckDB's session is in UTC, as pqsift casts zoned ones), by
        // either spelling, against the day of a value or its neighbours.
        const v = randomValue(rng, leaf) ?? 0n;
        const day = (v >= 0n ? v / DAY_NS : -((-v + DAY_NS - 1n) / DAY_NS)) + BigInt(rng.int(-1, 1));
        const cast = rng.chance(0.5) ? `CAST(${x} AS DATE)` : `${x}::DATE`;
        if (rng.chance(0.3)) return `${cast} BETWEEN '${dateText(day)}' AND '${dateText(day + BigInt(rng.int(0, 3)))}'`;
        return `${cast} ${rng.pick(CMP)} ${rng.chance(0.5) ? 'DATE ' : ''}'${dateText(day)}'`;
      }
      const v = randomValue(rng, leaf);
      const num = leaf.cat === 'dec' ? Number(decText(v, leaf.desc.scale)) : Number(v);
      return `CAST(${x} AS DOUBLE) ${rng.pick(CMP)} ${Number.isFinite(num) ? num.toExponential().replace('e+', 'e') : "'nan'"}`;
    }
    case 'interval': {
      // TPC-H's date ranges: a date or timestamp literal +- an INTERVAL (a TIMESTAMP in DuckDB),
      // in DuckDB's three spellings, or a date +- a number of days.
      const v = randomValue(rng, leaf);
      const base = v === null ? null : literal(leaf, v);
      if (base === null) return `${x} IS NOT NULL`;
      const unit = rng.pick(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second']);
      const n = rng.pick([0, 1, 1, 2, 3, 7, 30, 90, 100, -1]);
      const interval = rng.pick([`INTERVAL '${n}' ${unit.toUpperCase()}`, `INTERVAL ${Math.abs(n)} ${unit}`,
                                 `INTERVAL '${n} ${unit}s'`, `INTERVAL '1 ${unit} ${n} days'`]);
      const sign = rng.pick(['+', '-']);
      if (leaf.cat === 'date' && rng.chance(0.15)) return `${x} ${rng.pick(CMP)} ${base} ${sign} ${Math.abs(n)}`;
      // The column's side: x +- INTERVAL (a TIMESTAMP, as DuckDB's), INTERVAL + x, date +- n.
      if (rng.chance(0.3)) {
        if (leaf.cat === 'date' && rng.chance(0.3)) return `${x} ${sign} ${Math.abs(n)} ${rng.pick(CMP)} ${base}`;
        const shifted = sign === '+' && rng.chance(0.2) ? `${interval} + ${x}` : `${x} ${sign} ${interval}`;
        if (rng.chance(0.2)) return `${shifted} BETWEEN ${base} AND ${base} + ${interval}`;
        return `${shifted} ${rng.pick(CMP)} ${base}`;
      }
      const rhs = rng.chance(0.2) && sign === '+' ? `${interval} + ${base}` : `${base} ${sign} ${interval}`;
      if (rng.chance(0.2)) return `${x} BETWEEN ${base} AND ${base} + ${interval}`;
      return `${x} ${rng.pick(CMP)} ${rhs}`;
    }
    case 'datepart': {
      // year(x) (pruned as x is), the other fields (fixed ranges), by DuckDB's spellings.
      const v = randomValue(rng, leaf) ?? 0n;
      const days = leaf.cat === 'date' ? v : (v >= 0n ? v / DAY_NS : -((-v + DAY_NS - 1n) / DAY_NS));
      const d = new Date(Number(days) * 86400000);
      const year = Number.isFinite(d.getTime()) ? d.getUTCFullYear() : 1970;
      const fields = [['year', year + rng.int(-1, 1)], ['month', rng.int(1, 12)], ['day', rng.int(1, 31)],
                      ['quarter', rng.int(1, 4)], ['dayofweek', rng.int(0, 6)], ['isodow', rng.int(1, 7)],
                      ['dayofyear', rng.int(1, 366)]];
      if (leaf.cat === 'ts') fields.push(['hour', rng.int(0, 23)], ['minute', rng.int(0, 59)], ['second', rng.int(0, 59)]);
      const [field, value] = rng.pick(fields);
      const spelled = rng.pick([`${field}(${x})`, `date_part('${field}', ${x})`,
                                `extract(${field === 'dayofweek' ? 'dow' : field === 'dayofyear' ? 'doy' : field} FROM ${x})`]);
      if (rng.chance(0.2)) {
        // date_trunc: a microsecond timestamp, against the truncation of a value's day.
        // Not hour, minute or second of a DATE: DuckDB 1.5 gets date_trunc('minute', d) <=
        // TIMESTAMP '.. 11:00:00' wrong for the midnight of d's own day.
        const unit = rng.pick(['year', 'quarter', 'month', 'week', 'day', ...(leaf.cat === 'ts' ? ['hour', 'minute', 'second'] : [])]);
        const day = dateText(days + BigInt(rng.int(-1, 1)));
        const rhs = rng.pick([`'${day}'`, `DATE '${day}'`, `TIMESTAMP '${day} ${String(rng.int(0, 23)).padStart(2, '0')}:00:00'`]);
        // Not =, != or <>: DuckDB 1.5 folds date_trunc(u, x) = c, for a c the unit cannot give,
        // into FALSE (and != into TRUE) even where x is NULL, so NOT (date_trunc(..) = c) passes
        // its NULL rows; SQL, and pqsift, give NULL. The ordering comparisons are right there.
        return `date_trunc('${unit}', ${x}) ${rng.pick(['<', '<=', '>', '>='])} ${rhs}`;
      }
      if (rng.chance(0.25)) return `${spelled} BETWEEN ${value} AND ${value + rng.int(0, 3)}`;
      return `${spelled} ${rng.pick(CMP)} ${value}`;
    }
    case 'arith': {
      const others = leaves.filter((o) => NUMERIC.has(o.cat) && o !== leaf);
      const c = rng.pick(['1', '2', '-3', '0.5', '1000', '0']);
      const op = rng.pick(CMP);
      const shape = rng.int(0, 5);
      if (shape === 0 || !others.length) return `${x} ${rng.pick(['+', '-', '*'])} ${c} ${op} ${lit()}`;
      const y = rng.pick(others).path;
      if (shape === 1) return `${x} + 1 ${op} ${y}`;
      if (shape === 2) return `${x} - ${y} ${op} ${lit()}`;
      if (shape === 3) return `${x} * 2 ${op} ${y}`;
      // Division by zero is IEEE in DuckDB 1.5 (inf, NaN), by a literal 0 or a column's zeros.
      if (shape === 4) return `${x} / ${y} ${op} ${lit()}`;
      return `${x} / ${rng.pick(['2', '4', '0.5', '3', '0', '0.0'])} ${op} ${lit()}`;
    }
    default: { // colcol
      const other = rng.pick(leaves.filter((o) => o !== leaf && compatible(o, leaf)));
      if (!ORDERED.has(leaf.cat) || rng.chance(0.15)) return `${x} IS ${rng.chance(0.5) ? 'NOT ' : ''}DISTINCT FROM ${other.path}`;
      return `${x} ${rng.pick(CMP)} ${other.path}`;
    }
  }
}

function predicate(rng, ctx, depth) {
  if (depth >= ctx.maxDepth || rng.chance(0.35)) return atom(rng, ctx);
  const r = rng.float();
  if (r < 0.4) return `(${Array.from({ length: rng.int(2, 3) }, () => predicate(rng, ctx, depth + 1)).join(' AND ')})`;
  if (r < 0.8) return `(${Array.from({ length: rng.int(2, 3) }, () => predicate(rng, ctx, depth + 1)).join(' OR ')})`;
  if (r < 0.95) return `NOT (${predicate(rng, ctx, depth + 1)})`;
  return `(${predicate(rng, ctx, depth + 1)}) IS ${rng.chance(0.5) ? 'NOT ' : ''}${rng.pick(['TRUE', 'FALSE'])}`;
}

// The same predicate as DuckDB SQL: the filter language is DuckDB's dialect for everything
// generated (LIKE has no escape character in either, docs/filter-language.md).
export function duckDialect(where) {
  return where;
}

// What a bloom filter can decide: `x = v`, `x IN (...)`, `x IS NOT DISTINCT FROM v` on one
// column (values that occur, their neighbours, values outside the range), alone, under AND with
// another atom, or ORed with a second equality.
function equalityPredicate(rng, ctx) {
  const leaf = rng.pick(ctx.leaves);
  const lit = () => literalFor(rng, leaf);
  const eq = () => rng.pick([`${leaf.path} = ${lit()}`, `${leaf.path} IS NOT DISTINCT FROM ${lit()}`,
                             `${leaf.path} IN (${Array.from({ length: rng.int(1, 4) }, lit).join(', ')})`]);
  return rng.weighted([[4, () => eq()], [2, () => `(${eq()} AND ${atom(rng, ctx)})`], [2, () => `(${eq()} OR ${eq()})`]])();
}

// { where, duckWhere, select }: select is null (every column, schema order) or a list of paths.
// `equalityShare`: the share of predicates that are equalities a bloom filter can decide (the
// draw is made only when it is above 0, so other files' cases stay as they were).
export function generateCase(rng, profile, equalityShare = 0) {
  if (!profile.leaves.length) return null;
  // Most predicates concentrate on one or two columns (so they are selective and prune), some
  // spread over all of them (OR across columns).
  const focus = rng.chance(0.7) ? rng.shuffle([...profile.leaves]).slice(0, rng.int(1, 2)) : profile.leaves;
  const ctx = { leaves: focus, maxDepth: rng.weighted([[3, 0], [3, 1], [2, 2], [2, 3]]) };
  const where = equalityShare > 0 && rng.chance(equalityShare) ? equalityPredicate(rng, ctx) : predicate(rng, ctx, 0);
  const duckWhere = duckDialect(where);
  let select = null;
  if (rng.chance(0.5)) {
    const paths = [...profile.names];
    for (const l of profile.leaves) if (l.path.includes('.')) paths.push(l.path);
    select = rng.shuffle(paths).slice(0, rng.int(1, Math.min(3, paths.length)));
  }
  return { where, duckWhere, select };
}

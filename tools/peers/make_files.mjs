#!/usr/bin/env node
// Writes a deterministic set of Parquet test files with three independent writers:
//   DuckDB (its own C++ writer), Polars (polars-parquet, Rust) and parquet-wasm (arrow-rs).
//
//   node tools/peers/make_files.mjs OUTDIR
//
// Prints the absolute path of every file written, one per line, and nothing else on stdout.
// The content is a pure function of the row index (no random(), no clock), DuckDB runs with one
// thread and TimeZone=UTC, so the same package-lock.json gives byte-identical files.
//
// Also importable: `import { makeFiles } from './make_files.mjs'` -> Promise<string[]>.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import pl from 'nodejs-polars';
import * as pw from 'parquet-wasm';

// ---------------------------------------------------------------------------------------------
// DuckDB
// ---------------------------------------------------------------------------------------------

// NULL in roughly one row of `every`, at a per-column phase, so row groups differ.
const nul = (expr, every, phase) => `CASE WHEN i % ${every} = ${phase} THEN NULL ELSE ${expr} END`;

// Every scalar type DuckDB can write, with NULLs, negative values and each type's extremes.
// 5000 rows with ROW_GROUP_SIZE 2048 -> row groups of 2048, 2048, 904 rows.
const DUCK_SCALARS = `
SELECT
  i::BIGINT AS id,
  ${nul('i % 3 = 0', 11, 1)} AS b,
  ${nul(`CASE WHEN i = 40 THEN -128 WHEN i = 41 THEN 127 ELSE (i * 37) % 256 - 128 END::TINYINT`, 13, 2)} AS i8,
  ${nul(`((i * 7919) % 65536 - 32768)::SMALLINT`, 17, 3)} AS i16,
  ${nul(`((i * 2654435761) % 4294967296 - 2147483648)::INTEGER`, 19, 4)} AS i32,
  ${nul(`CASE WHEN i = 42 THEN -9223372036854775808 WHEN i = 43 THEN 9223372036854775807
             ELSE (i - 2500) * 3689348814741910 END::BIGINT`, 23, 5)} AS i64,
  ${nul(`((i * 37) % 256)::UTINYINT`, 13, 6)} AS u8,
  ${nul(`((i * 7919) % 65536)::USMALLINT`, 17, 7)} AS u16,
  ${nul(`((i * 2654435761) % 4294967296)::UINTEGER`, 19, 8)} AS u32,
  ${nul(`CASE WHEN i = 44 THEN 18446744073709551615 WHEN i = 45 THEN 0
             ELSE (i::HUGEINT * 3689348814741910323) % 18446744073709551616 END::UBIGINT`, 23, 9)} AS u64,
  ${nul(`CASE WHEN i = 46 THEN 3.4028235e38 WHEN i = 47 THEN -1.17549435e-38
             ELSE (i - 2500) / 7.0 END::FLOAT`, 29, 10)} AS f32,
  ${nul(`CASE WHEN i = 48 THEN 1.7976931348623157e308 WHEN i = 49 THEN -5e-324
             ELSE (i - 2500) * 0.0011 END::DOUBLE`, 29, 11)} AS f64,
  ${nul(`CASE WHEN i = 50 THEN 9999999.99 WHEN i = 51 THEN -9999999.99
             ELSE ((i * 7919) % 2000000 - 1000000) / 100.0 END::DECIMAL(9,2)`, 31, 12)} AS dec9,
  ${nul(`((i - 2500) * 12345678901 + (i % 7) * 0.0001)::DECIMAL(18,4)`, 31, 13)} AS dec18,
  ${nul(`((i - 2500)::DECIMAL(38,0) * 1234567890123456789012345 + (i % 97) * 0.0000000001)::DECIMAL(38,10)`, 31, 14)} AS dec38,
  ${nul(`DATE '1969-12-31' + (i * 37 - 90000)::INTEGER`, 37, 15)} AS dt,
  ${nul(`TIME '00:00:00' + to_microseconds((i * 86399999937) % 86400000000)`, 37, 16)} AS tm,
  ${nul(`TIMESTAMP '1970-01-01' + to_microseconds((i - 2500)::BIGINT * 1234567890123)`, 41, 17)} AS ts_us,
  ${nul(`(TIMESTAMP '1970-01-01' + to_microseconds((i - 2500)::BIGINT * 1234567890123))::TIMESTAMP_MS`, 41, 18)} AS ts_ms,
  ${nul(`make_timestamp_ns((i - 2500)::BIGINT * 1234567890123456 + i)`, 41, 19)} AS ts_ns,
  ${nul(`(TIMESTAMP '1970-01-01' + to_microseconds((i - 2500)::BIGINT * 1234567890123))::TIMESTAMP_S`, 41, 20)} AS ts_s,
  ${nul(`TIMESTAMPTZ '2001-02-03 04:05:06.789+00' + to_microseconds((i - 2500)::BIGINT * 987654321)`, 43, 21)} AS tstz,
  ${nul(`(TIME '10:00:00' + INTERVAL (i) SECOND)::TIMETZ`, 43, 22)} AS ttz,
  ${nul(`CASE WHEN i = 52 THEN '' WHEN i % 5 = 0 THEN 'grüße ' || i ELSE 'v' || (i * 7) END`, 47, 23)} AS v,
  ${nul(`unhex(printf('%08x', (i * 2654435761) % 4294967296))`, 47, 24)} AS bl,
  ${nul(`md5(i::VARCHAR)::UUID`, 53, 25)} AS u,
  ${nul(`(['red', 'green', 'blue'])[i % 3 + 1]::ENUM('red', 'green', 'blue')`, 53, 26)} AS en,
  ${nul(`('{"k":' || (i - 2500) || '}')::JSON`, 59, 27)} AS js,
  ${nul(`INTERVAL (i) DAY + INTERVAL (i % 13) MONTH`, 59, 28)} AS iv,
  CASE WHEN i < 100 THEN i::INTEGER ELSE NULL END AS sparse,
  NULL::INTEGER AS all_null,
  42::INTEGER AS constant
FROM range(5000) t(i)`;

// Nested types: STRUCT, LIST, MAP, LIST of STRUCT, STRUCT of LIST, LIST of LIST, fixed ARRAY.
// NULLs at every level and empty lists. 3000 rows -> row groups of 2048 and 952 rows.
const DUCK_NESTED = `
SELECT
  i::INTEGER AS id,
  CASE WHEN i % 17 = 0 THEN NULL ELSE {
    'a': ${nul('(i - 1500)::INTEGER', 7, 1)},
    'b': ${nul(`'s' || i`, 5, 2)},
    'c': {'d': ${nul('(i - 1500) / 4.0', 9, 3)}::DOUBLE,
          'e': CASE WHEN i % 11 = 0 THEN NULL
                    ELSE [DATE '2000-01-01' + i::INTEGER, NULL, DATE '1960-06-15' - i::INTEGER] END}
  } END AS st,
  CASE WHEN i % 13 = 0 THEN NULL WHEN i % 13 = 1 THEN []::INTEGER[]
       ELSE [(i - 1500)::INTEGER, NULL, (i * 3)::INTEGER] END AS li,
  CASE WHEN i % 19 = 0 THEN NULL
       ELSE [['x' || i, NULL], [], NULL, ['y' || (i % 100)]] END AS lli,
  CASE WHEN i % 23 = 0 THEN NULL
       ELSE MAP {'k' || (i % 50): (i - 1500)::BIGINT, 'z' || i: NULL::BIGINT} END AS mp,
  CASE WHEN i % 29 = 0 THEN NULL
       ELSE [{'x': (i % 10 - 5)::SMALLINT, 'y': 'q' || i}, NULL, {'x': NULL, 'y': NULL}] END AS los,
  [i::DOUBLE / 3, -i::DOUBLE, CASE WHEN i % 31 = 0 THEN NULL ELSE i::DOUBLE END]::DOUBLE[3] AS arr
FROM range(3000) t(i)`;

// Floating point specials, long strings (DuckDB truncates their statistics), dictionary and
// bloom filter columns, constant and all-NULL row groups, key/value metadata, field ids.
// 6000 rows -> row groups of 2048, 2048, 1904 rows.
const DUCK_SPECIAL = `
SELECT
  i::INTEGER AS id,
  -- row group 0 has NaN (DuckDB then writes no min/max), row group 1 has +-inf, row group 2 -0.0/+0.0
  CASE WHEN i < 2048 THEN (CASE WHEN i = 7 THEN 'nan'::DOUBLE ELSE i / 3.0 END)
       WHEN i < 4096 THEN (CASE WHEN i = 3000 THEN 'inf'::DOUBLE WHEN i = 3001 THEN '-inf'::DOUBLE ELSE -i / 3.0 END)
       ELSE (CASE WHEN i % 2 = 0 THEN -0.0::DOUBLE ELSE 0.0::DOUBLE END) END AS dspecial,
  CASE WHEN i < 2048 THEN (CASE WHEN i = 9 THEN 'inf'::FLOAT ELSE (i / 3.0)::FLOAT END)
       WHEN i < 4096 THEN (CASE WHEN i = 3002 THEN '-inf'::FLOAT ELSE (-i / 3.0)::FLOAT END)
       ELSE (CASE WHEN i % 3 = 0 THEN -0.0::FLOAT ELSE 0.0::FLOAT END) END AS fspecial,
  repeat(chr((97 + i % 26)::INTEGER), 40 + i % 300) || i AS long_str,
  repeat('z', 300 + i % 50) AS very_long_str,
  ('cat' || (i % 7)) AS dict_str,
  (i % 5 - 2)::BIGINT AS dict_int,
  CASE WHEN i >= 2048 AND i < 4096 THEN NULL ELSE i END::BIGINT AS null_middle_rg,
  'same'::VARCHAR AS constant_str,
  NULL::VARCHAR AS all_null_str,
  CASE WHEN i % 2 = 0 THEN '日本語' || i ELSE 'émoji 😀 ' || i END AS unicode_str
FROM range(6000) t(i)`;

// A wide-ish table with many small row groups and a different writer version.
const DUCK_V2 = `
SELECT
  i::BIGINT AS id,
  ${nul('(i * 31 % 1000 - 500)::INTEGER', 7, 3)} AS small,
  ${nul(`'w' || (i % 37)`, 9, 4)} AS s,
  ${nul('(i - 4000) / 8.0', 11, 5)}::DOUBLE AS d,
  ${nul(`DATE '2020-02-29' + (i % 400 - 200)::INTEGER`, 13, 6)} AS dt,
  ${nul(`TIMESTAMPTZ '2024-03-10 01:59:59+00' + to_microseconds(i * 1000003)`, 15, 7)} AS tstz
FROM range(10000) t(i)`;

// The decode test's workload (tests/interop/scan_vs_duckdb.mjs): many row groups, every
// encoding DuckDB writes (V1: PLAIN, PLAIN_DICTIONARY; V2: DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, RLE_DICTIONARY, BYTE_STREAM_SPLIT), NULL densities of 0%, ~10%, 50%
// and 100%, empty strings, long strings (up to 8 KB, every 397th row), dictionary and
// high-cardinality strings, integers whose deltas need every bit width.
const duckWide = (n) => `
SELECT
  i::BIGINT AS id,
  CASE WHEN i % 2 = 0 THEN NULL ELSE (i * 7 - 300000)::INTEGER END AS i32_n50,
  ((i * 2654435761) % 1000003 - 500000)::INTEGER AS i32_jumpy,
  CASE WHEN i % 1000 = 1 THEN -9223372036854775808 WHEN i % 1000 = 2 THEN 9223372036854775807
       WHEN i % 7 = 0 THEN NULL ELSE (i::HUGEINT * 1000000007 * (CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END))::BIGINT END AS i64_wide,
  NULL::INTEGER AS i32_n100,
  CASE WHEN i % 10 = 3 THEN NULL ELSE 'cat' || (i % 50) END AS s_dict,
  md5(i::VARCHAR) || CASE WHEN i % 3 = 0 THEN '' ELSE 'ü' || i END AS s_plain,
  CASE WHEN i % 3 = 0 THEN '' WHEN i % 3 = 1 THEN NULL ELSE 'e' || i END AS s_empty,
  CASE WHEN i % 397 = 0 THEN repeat(chr((65 + i % 26)::INTEGER), 4000 + i % 4000) || i
       WHEN i % 397 = 1 THEN NULL ELSE 'short' || (i % 1000) END AS s_long,
  CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 2 = 0) END AS b,
  CASE WHEN i % 1009 = 5 THEN 'nan'::DOUBLE WHEN i % 1009 = 6 THEN 'inf'::DOUBLE
       WHEN i % 1009 = 7 THEN '-inf'::DOUBLE WHEN i % 1009 = 8 THEN -0.0::DOUBLE
       WHEN i % 11 = 0 THEN NULL ELSE (i - ${n / 2}) / 7.0 END AS dbl,
  CASE WHEN i % 13 = 0 THEN NULL ELSE ((i % 20000) / 3.0)::FLOAT END AS flt,
  CASE WHEN i % 17 = 0 THEN NULL ELSE ((i * 37) % 19999 - 9999) / 10.0 END::DECIMAL(5,1) AS dec5,
  ((i - ${n / 2}) * 1234567 + (i % 1000) * 0.001)::DECIMAL(18,3) AS dec18,
  CASE WHEN i % 19 = 0 THEN NULL
       ELSE ((i - ${n / 2})::DECIMAL(38,0) * 98765432109876543210987 + (i % 89) * 0.00001)::DECIMAL(38,5) END AS dec38,
  CASE WHEN i % 23 = 0 THEN NULL ELSE DATE '1900-01-01' + (i * 3)::INTEGER END AS dt,
  CASE WHEN i % 29 = 0 THEN NULL ELSE TIMESTAMP '1960-01-01' + to_microseconds(i::BIGINT * 987654321) END AS ts,
  TIMESTAMPTZ '1999-12-31 23:59:59+00' + to_microseconds((i - ${n / 2})::BIGINT * 1000003) AS tstz,
  CASE WHEN i % 31 = 0 THEN NULL ELSE unhex(md5(i::VARCHAR)) END AS bl
FROM range(${n}) t(i)`;

// Deeper nesting: lists of lists of lists, lists of structs holding lists and maps, maps with
// non-string keys and list values, structs of maps; NULL and empty at every level.
const DUCK_NESTED_DEEP = `
SELECT
  i::INTEGER AS id,
  CASE WHEN i % 11 = 0 THEN NULL WHEN i % 11 = 1 THEN []::INTEGER[][][]
       ELSE [[[i, NULL], []], NULL, [], [[NULL], [i * 2, i * 3, i * 4]]] END AS lll,
  CASE WHEN i % 7 = 0 THEN NULL
       ELSE [{'k': i, 'tags': CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN [] ELSE ['t' || i, NULL, ''] END,
              'm': MAP {'a' || (i % 4): i / 2.0}},
             NULL,
             {'k': NULL, 'tags': ['x'], 'm': NULL}] END AS los_deep,
  CASE WHEN i % 9 = 0 THEN NULL WHEN i % 9 = 1 THEN MAP {}::MAP(INTEGER, VARCHAR)
       ELSE MAP {i: 'v' || i, -i - 1: NULL} END AS map_int_key,
  CASE WHEN i % 13 = 0 THEN NULL
       ELSE MAP {'l' || i: [i, NULL], 'e': []::INTEGER[], 'n': NULL} END AS map_list_val,
  CASE WHEN i % 5 = 0 THEN NULL
       ELSE {'m': CASE WHEN i % 2 = 0 THEN NULL ELSE MAP {DATE '2000-01-01' + i::INTEGER: i % 3 = 0} END,
             'inner': {'c': CASE WHEN i % 4 = 0 THEN NULL ELSE ['c' || i] END, 'd': (i / 4.0)::FLOAT}} END AS st_map,
  [NULL::BIGINT, NULL::BIGINT] AS list_all_null_items,
  CASE WHEN i % 2 = 0 THEN []::VARCHAR[] ELSE NULL END AS list_empty_or_null
FROM range(20000) t(i)`;

async function writeDuckDB(outdir) {
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await inst.connect();
  await con.run('SET threads = 1');
  await con.run(`SET TimeZone = 'UTC'`);
  await con.run('SET preserve_insertion_order = true');
  const files = [];
  const copy = async (name, select, options) => {
    const file = path.join(outdir, name);
    await con.run(`COPY (${select}) TO '${file.replaceAll("'", "''")}' (FORMAT parquet, ${options})`);
    files.push(file);
  };
  for (const codec of ['snappy', 'zstd', 'gzip', 'uncompressed']) {
    await copy(`duckdb_scalars_${codec}.parquet`, DUCK_SCALARS, `COMPRESSION ${codec}, ROW_GROUP_SIZE 2048`);
  }
  await copy('duckdb_scalars_brotli_v2.parquet', DUCK_SCALARS,
             'COMPRESSION brotli, ROW_GROUP_SIZE 2048, PARQUET_VERSION V2');
  await copy('duckdb_nested_zstd.parquet', DUCK_NESTED, 'COMPRESSION zstd, ROW_GROUP_SIZE 2048');
  await copy('duckdb_nested_snappy_v2.parquet', DUCK_NESTED,
             'COMPRESSION snappy, ROW_GROUP_SIZE 2048, PARQUET_VERSION V2');
  await copy('duckdb_special_snappy.parquet', DUCK_SPECIAL,
             `COMPRESSION snappy, ROW_GROUP_SIZE 2048, KV_METADATA {writer: 'pqsift make_files', 'key with space': 'välue'}, FIELD_IDS 'auto'`);
  await copy('duckdb_v2_lz4.parquet', DUCK_V2, 'COMPRESSION lz4, ROW_GROUP_SIZE 2048, PARQUET_VERSION V2');
  await copy('duckdb_empty.parquet', 'SELECT 1::INTEGER AS a, \'x\' AS b, [1.5]::DOUBLE[] AS c WHERE false',
             'COMPRESSION snappy');
  await copy('duckdb_one_row.parquet', `SELECT -1::TINYINT AS a, NULL::VARCHAR AS b, 'only' AS c`,
             'COMPRESSION uncompressed');
  // For scan_vs_duckdb: the wide workload in V1 and V2 and every codec DuckDB writes.
  await copy('duckdb_wide_v2_zstd.parquet', duckWide(100000),
             'COMPRESSION zstd, ROW_GROUP_SIZE 10240, PARQUET_VERSION V2');
  await copy('duckdb_wide_v1_snappy.parquet', duckWide(30000), 'COMPRESSION snappy, ROW_GROUP_SIZE 8192');
  await copy('duckdb_wide_v1_gzip.parquet', duckWide(10000), 'COMPRESSION gzip, ROW_GROUP_SIZE 4096');
  await copy('duckdb_wide_v2_lz4.parquet', duckWide(10000), 'COMPRESSION lz4, ROW_GROUP_SIZE 4096, PARQUET_VERSION V2');
  await copy('duckdb_wide_v1_brotli.parquet', duckWide(10000), 'COMPRESSION brotli, ROW_GROUP_SIZE 4096');
  await copy('duckdb_wide_v2_uncompressed.parquet', duckWide(10000),
             'COMPRESSION uncompressed, ROW_GROUP_SIZE 4096, PARQUET_VERSION V2');
  await copy('duckdb_nested_deep_v2_gzip.parquet', DUCK_NESTED_DEEP,
             'COMPRESSION gzip, ROW_GROUP_SIZE 4096, PARQUET_VERSION V2');
  await copy('duckdb_nested_deep_v1_lz4.parquet', DUCK_NESTED_DEEP, 'COMPRESSION lz4, ROW_GROUP_SIZE 8192');
  con.closeSync?.();
  inst.closeSync?.();
  return files;
}

// ---------------------------------------------------------------------------------------------
// Polars
// ---------------------------------------------------------------------------------------------

const N_POLARS = 3000;
const idx = Array.from({ length: N_POLARS }, (_, i) => i);
const withNulls = (every, phase, f) => idx.map((i) => (i % every === phase ? null : f(i)));

function polarsFrame() {
  const MS_PER_DAY = 86400000;
  const cols = [
    pl.Series('id', idx.map((i) => i), pl.Int64),
    pl.Series('b', withNulls(11, 1, (i) => i % 3 === 0), pl.Bool),
    pl.Series('i8', withNulls(13, 2, (i) => (i === 40 ? -128 : i === 41 ? 127 : ((i * 37) % 256) - 128)), pl.Int8),
    pl.Series('i16', withNulls(17, 3, (i) => ((i * 7919) % 65536) - 32768), pl.Int16),
    pl.Series('i32', withNulls(19, 4, (i) => ((i * 2654435761) % 4294967296) - 2147483648), pl.Int32),
    // nodejs-polars 0.25.2 turns BigInt input of an Int64 Series into NULLs: go through strings.
    pl.Series('i64', withNulls(23, 5, (i) =>
      String(i === 42 ? -9223372036854775808n : i === 43 ? 9223372036854775807n : BigInt(i - 1500) * 3689348814741910n)),
      pl.Utf8).cast(pl.Int64),
    pl.Series('u8', withNulls(13, 6, (i) => (i * 37) % 256), pl.UInt8),
    pl.Series('u16', withNulls(17, 7, (i) => (i * 7919) % 65536), pl.UInt16),
    pl.Series('u32', withNulls(19, 8, (i) => (i * 2654435761) % 4294967296), pl.UInt32),
    pl.Series('u64', withNulls(23, 9, (i) =>
      i === 44 ? 18446744073709551615n : (BigInt(i) * 3689348814741910323n) % 18446744073709551616n), pl.UInt64),
    pl.Series('f32', withNulls(29, 10, (i) => (i - 1500) / 7), pl.Float32),
    pl.Series('f64', withNulls(29, 11, (i) => (i - 1500) * 0.0011), pl.Float64),
    pl.Series('s', withNulls(31, 12, (i) => (i === 52 ? '' : i % 5 === 0 ? `grüße ${i}` : `v${i * 7}`)), pl.Utf8),
    pl.Series('date_ms', withNulls(37, 13, (i) => (i * 37 - 60000) * MS_PER_DAY), pl.Int64),
    // epoch offsets of about +-58 years in each unit, with sub-unit digits that differ per row
    pl.Series('raw_ms', withNulls(41, 14, (i) => String(BigInt(i - 1500) * 1234567890n + BigInt(i))), pl.Utf8)
      .cast(pl.Int64),
    pl.Series('raw_us', withNulls(41, 15, (i) => String(BigInt(i - 1500) * 1234567890123n + BigInt(i))), pl.Utf8)
      .cast(pl.Int64),
    pl.Series('raw_ns', withNulls(41, 16, (i) => String(BigInt(i - 1500) * 1234567890123457n + BigInt(i * 7))), pl.Utf8)
      .cast(pl.Int64),
    pl.Series('cat_src', withNulls(43, 15, (i) => ['red', 'green', 'blue', 'ünïcode'][i % 4]), pl.Utf8),
  ];
  let df = pl.DataFrame(cols);
  df = df.withColumns(
    pl.col('date_ms').cast(pl.Datetime('ms')).cast(pl.Date).alias('dt'),
    pl.col('raw_ms').cast(pl.Datetime('ms')).alias('ts_ms'),
    pl.col('raw_us').cast(pl.Datetime('us')).alias('ts_us'),
    pl.col('raw_ns').cast(pl.Datetime('ns')).alias('ts_ns'),
    pl.col('raw_ms').cast(pl.Datetime('ms', 'UTC')).alias('ts_ms_utc'),
    pl.col('raw_us').cast(pl.Datetime('us', 'Europe/Paris')).alias('ts_us_paris'),
    pl.col('raw_ns').cast(pl.Datetime('ns', 'America/New_York')).alias('ts_ns_ny'),
    pl.col('cat_src').cast(pl.Categorical).alias('cat'),
    pl.concatList([pl.col('i16').cast(pl.Int32), pl.col('i16').cast(pl.Int32).mul(-1).cast(pl.Int32),
                   pl.col('i8').cast(pl.Int32)]).alias('li32'),
    pl.concatList([pl.col('s'), pl.col('cat_src')]).alias('lstr'),
    pl.struct([pl.col('i32'), pl.col('s'), pl.col('f64')]).alias('st'),
  ).drop(['date_ms', 'raw_ms', 'raw_us', 'raw_ns', 'cat_src']);
  return df;
}

function polarsSpecialFrame() {
  // 900 rows, row groups of 300: NaN in group 0, +-inf in group 1, signed zeros in group 2.
  const n = 900;
  const r = Array.from({ length: n }, (_, i) => i);
  const d = r.map((i) => (i < 300 ? (i === 5 ? NaN : i / 3) : i < 600 ? (i === 400 ? Infinity : i === 401 ? -Infinity : -i / 3) : i % 2 ? 0 : -0));
  return pl.DataFrame([
    pl.Series('id', r, pl.Int32),
    pl.Series('d', d, pl.Float64),
    pl.Series('f', d, pl.Float32),
    pl.Series('all_null', r.map(() => null), pl.Int64),
    pl.Series('long_s', r.map((i) => 'x'.repeat(200 + i) + i), pl.Utf8),
  ]);
}

async function sinkPolars(df, file, options) {
  await df.lazy().sinkParquet(file, options).collect();
  return file;
}

async function writePolars(outdir) {
  const df = polarsFrame();
  const files = [];
  for (const codec of ['snappy', 'zstd', 'lz4', 'uncompressed']) {
    files.push(await sinkPolars(df, path.join(outdir, `polars_types_${codec}.parquet`),
                                { compression: codec, statistics: 'full', rowGroupSize: 1000 }));
  }
  files.push(await sinkPolars(df, path.join(outdir, 'polars_types_gzip_nostats.parquet'),
                              { compression: 'gzip', statistics: false, rowGroupSize: 1500 }));
  files.push(await sinkPolars(df, path.join(outdir, 'polars_types_brotli_default.parquet'),
                              { compression: 'brotli', statistics: true, rowGroupSize: 700 }));
  files.push(await sinkPolars(polarsSpecialFrame(), path.join(outdir, 'polars_special_zstd.parquet'),
                              { compression: 'zstd', statistics: 'full', rowGroupSize: 300 }));
  return { files, df };
}

// ---------------------------------------------------------------------------------------------
// parquet-wasm (arrow-rs writer), fed with the Polars frame through Arrow IPC
// ---------------------------------------------------------------------------------------------

function writeParquetWasm(outdir, df) {
  const files = [];
  const write = (name, configure) => {
    const table = pw.Table.fromIPCStream(df.writeIPCStream());
    const props = configure(new pw.WriterPropertiesBuilder().setCreatedBy('parquet-wasm 0.8.0 (arrow-rs)')).build();
    const bytes = pw.writeParquet(table, props);
    const file = path.join(outdir, name);
    fs.writeFileSync(file, bytes);
    files.push(file);
  };
  write('parquetwasm_v2_lz4raw_pagestats.parquet', (b) => b
    .setCompression(pw.Compression.LZ4_RAW)
    .setWriterVersion(pw.WriterVersion.V2)
    .setStatisticsEnabled(pw.EnabledStatistics.Page)
    .setMaxRowGroupSize(700));
  write('parquetwasm_v1_zstd_nodict.parquet', (b) => b
    .setCompression(pw.Compression.ZSTD)
    .setWriterVersion(pw.WriterVersion.V1)
    .setDictionaryEnabled(false)
    .setStatisticsEnabled(pw.EnabledStatistics.Chunk)
    .setMaxRowGroupSize(1024));
  write('parquetwasm_v1_uncompressed_nostats.parquet', (b) => b
    .setCompression(pw.Compression.UNCOMPRESSED)
    .setStatisticsEnabled(pw.EnabledStatistics.None)
    .setMaxRowGroupSize(3000));
  return files;
}

// ---------------------------------------------------------------------------------------------
// Re-writes of DuckDB's files by Polars and parquet-wasm, for the decode test: the DuckDB file is
// read by parquet-wasm (arrow-rs reader) into Arrow, then written again. This is how nested data
// reaches the other writers (nodejs-polars cannot build lists of lists or of structs from JS).
// ---------------------------------------------------------------------------------------------

function readArrow(file) {
  return pw.readParquet(new Uint8Array(fs.readFileSync(file)));
}

function writeWasm(outdir, files, name, source, configure) {
  const props = configure(new pw.WriterPropertiesBuilder().setCreatedBy('parquet-wasm 0.8.0 (arrow-rs)')).build();
  const file = path.join(outdir, name);
  fs.writeFileSync(file, pw.writeParquet(readArrow(source), props));
  files.push(file);
}

async function writeRewrites(outdir, df) {
  const wide = path.join(outdir, 'duckdb_wide_v1_gzip.parquet');
  const nested = path.join(outdir, 'duckdb_nested_deep_v1_lz4.parquet');
  const files = [];
  // Polars: its defaults (no options at all), and nested / string data with small pages.
  files.push(await sinkPolars(df, path.join(outdir, 'polars_types_default.parquet'), {}));
  const polarsFrom = (file) => pl.readIPCStream(Buffer.from(readArrow(file).intoIPCStream()));
  files.push(await sinkPolars(polarsFrom(nested), path.join(outdir, 'polars_nested_pages_zstd.parquet'),
                              { compression: 'zstd', statistics: 'full', rowGroupSize: 6000, dataPagesizeLimit: 2048 }));
  files.push(await sinkPolars(polarsFrom(wide), path.join(outdir, 'polars_wide_pages_lz4.parquet'),
                              { compression: 'lz4', statistics: true, rowGroupSize: 3000, dataPagesizeLimit: 4096 }));

  // parquet-wasm: dictionary with fallback to PLAIN inside a chunk, explicit DELTA_* and
  // BYTE_STREAM_SPLIT encodings, V1 and V2 pages, small pages, every codec arrow-rs writes.
  const E = pw.Encoding;
  const ints = ['id', 'i32_n50', 'i32_jumpy', 'i64_wide', 'i32_n100', 'dec5', 'dec18', 'dt', 'ts', 'tstz'];
  const strings = ['s_dict', 's_plain', 's_empty', 's_long'];
  const perColumn = (b, names, enc) => names.reduce((x, n) => x.setColumnEncoding(n, enc), b);
  writeWasm(outdir, files, 'parquetwasm_v1_snappy_dictfallback.parquet', wide, (b) => b
    .setCompression(pw.Compression.SNAPPY).setWriterVersion(pw.WriterVersion.V1)
    .setDictionaryEnabled(true).setDictionaryPageSizeLimit(2048)
    .setDataPageSizeLimit(2048).setWriteBatchSize(128).setMaxRowGroupSize(4000));
  writeWasm(outdir, files, 'parquetwasm_v2_delta_gzip.parquet', wide, (b) => perColumn(perColumn(perColumn(b
    .setCompression(pw.Compression.GZIP).setWriterVersion(pw.WriterVersion.V2).setDictionaryEnabled(false)
    .setDataPageSizeLimit(4096).setWriteBatchSize(256).setMaxRowGroupSize(6000),
  ints, E.DELTA_BINARY_PACKED), strings, E.DELTA_BYTE_ARRAY), ['dbl', 'flt'], E.BYTE_STREAM_SPLIT));
  writeWasm(outdir, files, 'parquetwasm_v2_dlba_bss_brotli.parquet', wide, (b) => perColumn(perColumn(b
    .setCompression(pw.Compression.BROTLI).setWriterVersion(pw.WriterVersion.V2).setDictionaryEnabled(false)
    .setDataPageSizeLimit(8192).setMaxRowGroupSize(10000),
  strings, E.DELTA_LENGTH_BYTE_ARRAY), ['id', 'i32_jumpy', 'i64_wide', 'dbl', 'flt', 'dec18'], E.BYTE_STREAM_SPLIT));
  writeWasm(outdir, files, 'parquetwasm_v1_lz4hadoop_nested.parquet', nested, (b) => b
    .setCompression(pw.Compression.LZ4).setWriterVersion(pw.WriterVersion.V1)
    .setDataPageSizeLimit(1024).setWriteBatchSize(100).setMaxRowGroupSize(7000));
  writeWasm(outdir, files, 'parquetwasm_v2_zstd_nested_nodict.parquet', nested, (b) => b
    .setCompression(pw.Compression.ZSTD).setWriterVersion(pw.WriterVersion.V2).setDictionaryEnabled(false)
    .setStatisticsEnabled(pw.EnabledStatistics.Page).setDataPageSizeLimit(2048).setMaxRowGroupSize(5000));
  return files;
}

export async function makeFiles(outdir) {
  fs.mkdirSync(outdir, { recursive: true });
  const abs = path.resolve(outdir);
  const files = [];
  files.push(...(await writeDuckDB(abs)));
  const { files: polarsFiles, df } = await writePolars(abs);
  files.push(...polarsFiles);
  files.push(...writeParquetWasm(abs, df));
  files.push(...(await writeRewrites(abs, df)));
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2];
  if (!outdir || process.argv.length > 3) {
    process.stderr.write('usage: node tools/peers/make_files.mjs OUTDIR\n');
    process.exit(2);
  }
  const files = await makeFiles(outdir);
  process.stdout.write(files.join('\n') + '\n');
}

// Where pqsift and DuckDB legitimately differ, keyed by file and column, each with the reason.
// Used by scan_vs_duckdb.mjs; documented in README.md ("Allow-list").
//
//   kind 'values'        the column's values differ from DuckDB's: the mismatches are still
//                        computed and printed (as ALLOWED), they do not fail the test
//   kind 'duckdb-error'  DuckDB cannot read the file (message must match `match`); `oracle`
//                        says what is compared instead: { file } DuckDB's reading of a file with
//                        the same content; { exclude } DuckDB on the other columns; { twins }
//                        columns of pqsift's output that must equal another column's text.
//                        Every other check still runs
//   kind 'pqsift-error'  pqsift refuses the file with an error matching `match` (a documented
//                        limitation, not a crash)
//
// An entry that no longer matches anything (no mismatch in the column, DuckDB reads the file,
// pqsift scans it) FAILS the test, so the list cannot go stale. Only genuine differences of
// interpretation belong here; a pqsift bug is a failure, never an entry.

const DUCKDB_NO_LZ4_HADOOP = /Unsupported compression codec "LZ4"/;
const DUCKDB_BSS_FLOATS_ONLY = /BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE/;

export const ALLOWLIST = [
  // DuckDB 1.5.6 reads LZ4_RAW but not the deprecated LZ4 codec (Hadoop framing).
  { file: 'hadoop_lz4_compressed.parquet', kind: 'duckdb-error', match: DUCKDB_NO_LZ4_HADOOP,
    oracle: { file: 'lz4_raw_compressed.parquet' },
    why: 'DuckDB has no LZ4 (Hadoop) codec; lz4_raw_compressed.parquet holds the same rows' },
  { file: 'hadoop_lz4_compressed_larger.parquet', kind: 'duckdb-error', match: DUCKDB_NO_LZ4_HADOOP,
    oracle: { file: 'lz4_raw_compressed_larger.parquet' },
    why: 'DuckDB has no LZ4 (Hadoop) codec; lz4_raw_compressed_larger.parquet holds the same rows' },
  { file: 'parquetwasm_v1_lz4hadoop_nested.parquet', kind: 'duckdb-error', match: DUCKDB_NO_LZ4_HADOOP,
    oracle: { file: 'duckdb_nested_deep_v1_lz4.parquet' },
    why: 'DuckDB has no LZ4 (Hadoop) codec; the file is parquet-wasm\'s rewrite of duckdb_nested_deep_v1_lz4.parquet' },
  // DuckDB 1.5.6 decodes BYTE_STREAM_SPLIT only for FLOAT and DOUBLE (the spec also allows
  // INT32, INT64 and FIXED_LEN_BYTE_ARRAY since format 2.11).
  { file: 'parquetwasm_v2_dlba_bss_brotli.parquet', kind: 'duckdb-error', match: DUCKDB_BSS_FLOATS_ONLY,
    oracle: { file: 'duckdb_wide_v1_gzip.parquet' },
    why: 'DuckDB cannot decode BYTE_STREAM_SPLIT integers; the file is parquet-wasm\'s rewrite of duckdb_wide_v1_gzip.parquet' },
  { file: 'byte_stream_split_extended.gzip.parquet', kind: 'duckdb-error', match: DUCKDB_BSS_FLOATS_ONLY,
    oracle: {
      exclude: ['float16_byte_stream_split', 'int32_byte_stream_split', 'int64_byte_stream_split',
        'flba5_byte_stream_split', 'decimal_byte_stream_split'],
      twins: { float16_byte_stream_split: 'float16_plain', int32_byte_stream_split: 'int32_plain',
        int64_byte_stream_split: 'int64_plain', flba5_byte_stream_split: 'flba5_plain',
        decimal_byte_stream_split: 'decimal_plain' },
    },
    why: 'DuckDB cannot decode BYTE_STREAM_SPLIT on FLBA/INT32/INT64; each such column has a PLAIN twin in the file' },
  // DuckDB 1.5.6 requires a MAP's key_value group to have a value field; the spec makes it
  // optional. pqsift (like arrow-rs) reads a map without values as the list of its keys.
  { file: 'map_no_value.parquet', kind: 'duckdb-error', match: /MAP_KEY_VALUE requires two children/,
    oracle: { twins: { my_map_no_v: 'my_list' } },
    why: 'DuckDB refuses a MAP without a value field (the whole file, even with the column excluded); my_map_no_v holds the same keys as my_list' },
  // INT96 as Spark writes and reads it: microseconds in wrapping int64 arithmetic. Row 5 is
  // year 290,000, which Spark stores wrapped (Julian day -105862232) and pqsift reads back as
  // Spark's 9089380393200000000 (the value parquet-testing's int96_from_spark.md gives); DuckDB
  // reads INT96 through 64-bit nanoseconds, so it wraps every row past 2262 (rows 2 and 5).
  { file: 'int96_from_spark.parquet', column: 'a', kind: 'values',
    why: 'DuckDB reads INT96 as nanoseconds and overflows past 2262; pqsift reads Spark\'s microseconds, checked against int96_from_spark.md in tests/column/int96_test.cc' },
];

export function allowFor(file, kind) {
  return ALLOWLIST.filter((a) => a.file === file && a.kind === kind);
}

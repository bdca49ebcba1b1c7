#!/usr/bin/env node
// Prints DuckDB's view of a Parquet footer as one JSON object:
//
//   node tools/peers/duckdb_metadata.mjs FILE
//   {"metadata": [rows of parquet_metadata(FILE)],
//    "schema": [rows of parquet_schema(FILE)],
//    "file_metadata": [rows of parquet_file_metadata(FILE)],
//    "kv_metadata": [rows of parquet_kv_metadata(FILE)]}
//
// Conversions (see jsonValue below): BIGINT/UBIGINT become JSON numbers when they are exact
// doubles (|v| <= 2^53 - 1) and decimal strings otherwise; BLOB values (the key/value metadata)
// become {"utf8": ..., "hex": ...}; MAP becomes a list of {key, value}; the statistics columns
// are VARCHAR in DuckDB and stay strings exactly as DuckDB renders them.
//
// Also importable: openDuckDB() and duckdbMetadata(connection, file).

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DuckDBInstance, DuckDBBlobValue, DuckDBListValue, DuckDBMapValue, DuckDBStructValue,
} from '@duckdb/node-api';

export function jsonValue(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') {
    return v >= -BigInt(Number.MAX_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  }
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof DuckDBBlobValue) {
    const buf = Buffer.from(v.bytes);
    return { utf8: buf.toString('utf8'), hex: buf.toString('hex') };
  }
  if (v instanceof DuckDBListValue) return v.items.map(jsonValue);
  if (v instanceof DuckDBMapValue) return v.entries.map((e) => ({ key: jsonValue(e.key), value: jsonValue(e.value) }));
  if (v instanceof DuckDBStructValue) {
    return Object.fromEntries(Object.entries(v.entries).map(([k, x]) => [k, jsonValue(x)]));
  }
  return String(v);
}

export async function openDuckDB() {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  await connection.run('SET threads = 1');
  // TIMESTAMPTZ statistics are rendered in the session time zone: pin it.
  await connection.run(`SET TimeZone = 'UTC'`);
  return { instance, connection };
}

const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;

async function rows(connection, sql) {
  const reader = await connection.runAndReadAll(sql);
  const names = reader.columnNames();
  return reader.getRows().map((r) => Object.fromEntries(names.map((n, i) => [n, jsonValue(r[i])])));
}

export async function duckdbMetadata(connection, file) {
  const f = sqlString(file);
  return {
    metadata: await rows(connection, `SELECT * FROM parquet_metadata(${f}) ORDER BY row_group_id, column_id`),
    schema: await rows(connection, `SELECT * FROM parquet_schema(${f}) ORDER BY column_id`),
    file_metadata: await rows(connection, `SELECT * FROM parquet_file_metadata(${f})`),
    kv_metadata: await rows(connection, `SELECT * FROM parquet_kv_metadata(${f})`),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    process.stderr.write('usage: node tools/peers/duckdb_metadata.mjs FILE\n');
    process.exit(2);
  }
  const { connection } = await openDuckDB();
  try {
    process.stdout.write(JSON.stringify(await duckdbMetadata(connection, file)) + '\n');
  } catch (e) {
    process.stderr.write(`duckdb_metadata: ${file}: ${e.message}\n`);
    process.exit(1);
  }
}

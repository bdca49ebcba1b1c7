// Regenerates the small Parquet files the repository ships (tests/data/tiny.parquet,
// examples/events.parquet) with DuckDB. Run from anywhere: node tools/peers/make_examples.mjs
import { fileURLToPath } from 'node:url';
import path from 'node:path';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (SELECT * FROM (VALUES (1::BIGINT, 'eu', DATE '2026-01-01', 12.50::DECIMAL(9,2)), (2, 'us', DATE '2026-01-02', NULL), (3, NULL, DATE '2026-01-03', -3.25)) t(id, region, day, amount)) TO '${root}/tests/data/tiny.parquet' (FORMAT parquet, COMPRESSION uncompressed)`);
await c.run(`COPY (SELECT i::BIGINT AS id, TIMESTAMP '2026-01-01 00:00:00' + INTERVAL (i * 37) SECOND AS ts,
  (['eu','us','apac','latam'])[1 + (i * 7919) % 4] AS region, ((i * 104729) % 100000) / 100.0 AS price, (i * 31) % 100 AS qty
  FROM range(20000) t(i)) TO '${root}/examples/events.parquet' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 4096)`);
const r = await c.runAndReadAll(`SELECT row_group_id, row_group_num_rows FROM parquet_metadata('${root}/examples/events.parquet') WHERE path_in_schema='id'`);
console.log(r.getRows());

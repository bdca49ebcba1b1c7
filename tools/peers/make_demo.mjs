// Writes the demo dataset scripts/demo shows pruning on (until pqsift's own writer exists, DuckDB
// writes it): 5 million sales events in 20 row groups of 250,000 rows, sorted by time (so `ts` and
// `id` prune row groups), with a low-cardinality `region` and random amounts (which do not).
//   node tools/peers/make_demo.mjs OUT.parquet
import { DuckDBInstance } from '@duckdb/node-api';

const out = process.argv[2];
if (!out) {
  console.error('usage: node tools/peers/make_demo.mjs OUT.parquet');
  process.exit(2);
}
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (
  SELECT i::BIGINT AS id,
         TIMESTAMP '2026-01-01 00:00:00' + INTERVAL (i * 6) SECOND AS ts,
         (['eu', 'us', 'apac', 'latam', 'mea'])[1 + (hash(i) % 5)::BIGINT] AS region,
         (hash(i * 31) % 1000000)::BIGINT AS customer,
         ((hash(i * 17) % 100000) / 100.0)::DECIMAL(10, 2) AS amount,
         (['paid', 'refunded', 'pending'])[1 + (hash(i * 7) % 3)::BIGINT] AS status
  FROM range(5000000) t(i)
) TO '${out.replaceAll("'", "''")}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 250000)`);

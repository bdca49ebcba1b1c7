// The wide file of the footer benchmarks (bench/footer_vs_duckdb.mjs, the suite's footer-only
// query): 500 columns x 50 row groups of 2048 rows, written once by DuckDB and reused after a
// check of its shape and generator version.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from './common.mjs';

export const COLUMNS = 500;
export const ROW_GROUPS = 50;
export const ROWS_PER_GROUP = 2048; // DuckDB's row groups are multiples of its 2048-row vectors
const GENERATOR_VERSION = 'wide-v1'; // bump when the SQL below changes: invalidates bench/data

function wideSelect() {
  const cols = [];
  for (let c = 0; c < COLUMNS; c++) {
    const nul = (e) => `CASE WHEN (i + ${c}) % 97 = 0 THEN NULL ELSE ${e} END`;
    cols.push([
      `${nul(`(i * ${c + 1}) % 1000003 - 500000`)}::BIGINT AS c${c}_i64`,
      `${nul(`((i + ${c}) % 10007) / 7.0`)}::DOUBLE AS c${c}_f64`,
      `${nul(`'v' || ((i * 31 + ${c}) % 5000)`)}::VARCHAR AS c${c}_str`,
      `${nul(`DATE '2000-01-01' + ((i + ${c}) % 9000)::INTEGER`)}::DATE AS c${c}_date`,
    ][c % 4]);
  }
  return `SELECT ${cols.join(', ')} FROM range(${ROW_GROUPS * ROWS_PER_GROUP}) t(i)`;
}

export async function shape(con, file) {
  const r = await con.runAndReadAll(
    `SELECT count(DISTINCT row_group_id)::INTEGER AS rgs, count(DISTINCT column_id)::INTEGER AS cols,
            min(row_group_num_rows)::INTEGER AS mn, max(row_group_num_rows)::INTEGER AS mx
     FROM parquet_metadata(${sql(file)})`);
  const f = await con.runAndReadAll(
    `SELECT footer_size::BIGINT AS footer, file_size_bytes::BIGINT AS size FROM parquet_file_metadata(${sql(file)})`);
  const kv = await con.runAndReadAll(
    `SELECT decode(value) AS v FROM parquet_kv_metadata(${sql(file)}) WHERE decode(key) = 'pqsift_generator'`);
  const [s] = r.getRowObjectsJson();
  const [g] = f.getRowObjectsJson();
  return { rowGroups: s.rgs, columns: s.cols, minRows: s.mn, maxRows: s.mx,
           footerBytes: Number(g.footer), fileBytes: Number(g.size), generator: kv.getRowObjectsJson()[0]?.v };
}

export async function ensureWideFile(con, dataDir) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, `wide_${COLUMNS}c_${ROW_GROUPS}rg.parquet`);
  const ok = (s) => s.rowGroups === ROW_GROUPS && s.columns === COLUMNS && s.minRows === ROWS_PER_GROUP &&
                    s.maxRows === ROWS_PER_GROUP && s.generator === GENERATOR_VERSION;
  if (fs.existsSync(file)) {
    try { if (ok(await shape(con, file))) return file; } catch { /* regenerate below */ }
  }
  process.stderr.write(`writing ${file} (${COLUMNS} columns x ${ROW_GROUPS} row groups) ...\n`);
  const tmp = `${file}.tmp`;
  await con.run(`COPY (${wideSelect()}) TO ${sql(tmp)} (FORMAT parquet, COMPRESSION zstd, ` +
                `ROW_GROUP_SIZE ${ROWS_PER_GROUP}, KV_METADATA {pqsift_generator: '${GENERATOR_VERSION}'})`);
  fs.renameSync(tmp, file);
  const s = await shape(con, file);
  if (!ok(s)) throw new Error(`DuckDB wrote ${JSON.stringify(s)}, expected ${ROW_GROUPS} row groups of ${ROWS_PER_GROUP} rows and ${COLUMNS} columns`);
  return file;
}


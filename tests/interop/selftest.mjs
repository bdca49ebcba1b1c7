#!/usr/bin/env node
// Tests the comparator itself: the JS reference rendering (reference_inspect.mjs) must match
// DuckDB on every generated file, and each deliberate corruption of it must be caught.
// This guards against normalisations that would make inspect_vs_duckdb unable to fail.
//
//   node tests/interop/selftest.mjs --workdir DIR
// Prints `interop_selftest: N passed, M failed`; exits 1 on any failure.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');
const NAME = 'interop_selftest';

let passed = 0;
let failed = 0;
function finish(extra) {
  if (extra) process.stdout.write(extra + '\n');
  process.stdout.write(`${NAME}: ${passed} passed, ${failed} failed\n`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}
function ok(name) { passed++; process.stdout.write(`PASS ${name}\n`); }
function bad(name, why) { failed++; process.stdout.write(`FAIL ${name}: ${why}\n`); }

const wi = process.argv.indexOf('--workdir');
if (wi < 0 || !process.argv[wi + 1]) {
  process.stderr.write(`usage: node tests/interop/selftest.mjs --workdir DIR\n`);
  process.exit(2);
}
if (!fs.existsSync(path.join(peers, 'node_modules', '@duckdb', 'node-api', 'package.json'))) {
  failed++;
  finish(`${NAME}: FAIL: ${path.join(peers, 'node_modules')} is missing; run scripts/setup`);
}

const workdir = path.resolve(process.argv[wi + 1]);
fs.rmSync(workdir, { recursive: true, force: true });
const { makeFiles } = await import(pathToFileURL(path.join(peers, 'make_files.mjs')));
const { openDuckDB, duckdbMetadata } = await import(pathToFileURL(path.join(peers, 'duckdb_metadata.mjs')));
const { rawFooter } = await import(pathToFileURL(path.join(peers, 'raw_footer.mjs')));
const { compareInspect } = await import(pathToFileURL(path.join(here, 'compare_inspect.mjs')));
const { inspect } = await import(pathToFileURL(path.join(here, 'reference_inspect.mjs')));

const files = await makeFiles(path.join(workdir, 'files'));
const { connection } = await openDuckDB();
const cache = new Map();
async function load(name) {
  if (!cache.has(name)) {
    const file = files.find((f) => path.basename(f) === name);
    if (!file) throw new Error(`no generated file ${name}`);
    cache.set(name, { duck: await duckdbMetadata(connection, file), raw: rawFooter(file), ref: inspect(file) });
  }
  const c = cache.get(name);
  return { duck: c.duck, raw: c.raw, ours: structuredClone(c.ref) };
}

// 1. The reference matches DuckDB everywhere.
for (const file of files) {
  const name = path.basename(file);
  const { duck, raw, ours } = await load(name);
  const r = compareInspect(duck, ours, raw);
  if (r.items.length) bad(`reference matches DuckDB on ${name}`, JSON.stringify(r.items.slice(0, 3)));
  else ok(`reference matches DuckDB on ${name}`);
}

// 2. Each corruption is detected, on the expected field.
const col = (doc, rg, p) => {
  const c = doc.row_groups[rg].columns.find((x) => x.path === p);
  if (!c) throw new Error(`no column ${p} in row group ${rg}`);
  return c;
};
const S = 'duckdb_scalars_snappy.parquet';
const P = 'polars_types_snappy.parquet';
const X = 'duckdb_special_snappy.parquet';
const N = 'duckdb_nested_zstd.parquet';
const mutations = [
  [S, 'num_rows', (d) => { d.num_rows += 1; }],
  [S, 'row_groups.length', (d) => { d.row_groups.pop(); }],
  [S, 'footer_length', (d) => { d.footer_length -= 1; }],
  [S, 'created_by', (d) => { delete d.created_by; }],
  [S, 'num_columns', (d) => { d.num_columns += 1; }],
  [S, 'max_definition_level', (d) => { d.columns[3].max_definition_level = 0; }],
  [S, 'rg1 i8: codec', (d) => { col(d, 1, 'i8').codec = 'ZSTD'; }],
  [S, 'rg0 i16: data_page_offset', (d) => { col(d, 0, 'i16').data_page_offset += 1; }],
  [S, 'rg0 i8: dictionary_page_offset', (d) => { delete col(d, 0, 'i8').dictionary_page_offset; }],
  [S, 'rg2 id: total_compressed_size', (d) => { col(d, 2, 'id').total_compressed_size -= 1; }],
  [S, 'rg0 b: statistics.null_count', (d) => { delete col(d, 0, 'b').statistics.null_count; }],
  [S, 'rg0 u64: statistics.max', (d) => { col(d, 0, 'u64').statistics.max = '-1'; }],
  [S, 'rg0 i64: statistics.min', (d) => { col(d, 0, 'i64').statistics.min = '-9223372036854775807'; }],
  [S, 'rg0 f32: statistics.min', (d) => { const s = col(d, 0, 'f32').statistics; s.min = String(Number(s.min) + 1e-4); }],
  [S, 'rg0 f64: statistics.max', (d) => { col(d, 0, 'f64').statistics.max = '1.7976931348623155e308'; }],
  [S, 'rg0 dec9: statistics.min', (d) => { col(d, 0, 'dec9').statistics.min = '-999999.999'; }],
  [S, 'rg1 dec38: statistics.max', (d) => { const s = col(d, 1, 'dec38').statistics; s.max = s.max.replace(/\d$/, (x) => String((+x + 1) % 10)); }],
  [S, 'rg0 dt: statistics.min', (d) => { col(d, 0, 'dt').statistics.min = '1723-08-04'; }],
  [S, 'rg0 tm: statistics.max', (d) => { col(d, 0, 'tm').statistics.max = '23:59:59.999938'; }],
  [S, 'rg0 ts_ns: statistics.max', (d) => { const s = col(d, 0, 'ts_ns').statistics; s.max = s.max.replace(/\d$/, (x) => String((+x + 1) % 10)); }],
  [S, 'rg0 ts_ms: statistics.min', (d) => { const s = col(d, 0, 'ts_ms').statistics; s.min = s.min + '+00'; }],
  [S, 'rg0 tstz: statistics.min', (d) => { const s = col(d, 0, 'tstz').statistics; s.min = s.min.replace('+00', ''); }],
  [S, 'rg0 bl: statistics.min', (d) => { col(d, 0, 'bl').statistics.min = '0x00000001'; }],
  [S, 'rg0 u: statistics.max', (d) => { col(d, 0, 'u').statistics.max = 'ffeed84c-7cb1-ae7b-f4ec-4bd78275bb99'; }],
  [S, 'rg0 v: statistics.max', (d) => { col(d, 0, 'v').statistics.max = 'v9995'; }],
  [S, 'rg0 en: statistics.is_min_value_exact', (d) => { col(d, 0, 'en').statistics.is_min_value_exact = true; }],
  [S, 'rg0 b: statistics.min', (d) => { col(d, 0, 'b').statistics.min = 'true'; }],
  [S, 'rg0 all_null: statistics.min', (d) => { col(d, 0, 'all_null').statistics.min = '0'; }],
  [S, 'rg0 constant: statistics.distinct_count', (d) => { col(d, 0, 'constant').statistics.distinct_count = 2; }],
  [S, 'rg0 id: statistics', (d) => { delete col(d, 0, 'id').statistics; }],
  [S, 'rg0 id: statistics.min_max_source', (d) => { col(d, 0, 'id').statistics.min_max_source = 'min/max (deprecated)'; }],
  [S, 'rg0 u: encodings', (d) => { col(d, 0, 'u').encodings = ['RLE']; }],
  [N, 'rg0 st.c.e.list.element: path', (d) => { col(d, 0, 'st.c.e.list.element').path = 'st.c.e.element'; }],
  [N, 'schema[2] st: children', (d) => { d.schema.children[1].children.pop(); }],
  [N, 'rg0 mp.key_value.key: statistics.max', (d) => { col(d, 0, 'mp.key_value.key').statistics.max = 'zz'; }],
  [X, 'rg1 dspecial: statistics.max', (d) => { col(d, 1, 'dspecial').statistics.max = '-inf'; }],
  [X, 'rg1 dspecial: statistics.min', (d) => { col(d, 1, 'dspecial').statistics.min = 'nan'; }],
  [X, 'rg0 dspecial: statistics.min', (d) => { col(d, 0, 'dspecial').statistics.min = 'nan'; }],
  [X, 'rg2 dspecial: statistics.max', (d) => { col(d, 2, 'dspecial').statistics.max = '0'; }],
  [X, 'rg0 very_long_str: statistics.max', (d) => { const s = col(d, 0, 'very_long_str').statistics; s.max = s.max.slice(0, -1); }],
  [X, 'kv value', (d) => { d.key_value_metadata[1].value = 'value'; }],
  [X, 'schema field_id', (d) => { d.schema.children[0].field_id = 7; }],
  [P, 'rg0 ts_ns_ny: statistics.min (1 us off)', (d) => {
    const s = col(d, 0, 'ts_ns_ny').statistics;
    s.min = s.min.replace(/(\.\d{5})(\d)/, (_, a, b) => a + String((+b + 1) % 10));
  }],
  [P, 'rg0 ts_ms_utc: statistics.max (+01 zone)', (d) => { const s = col(d, 0, 'ts_ms_utc').statistics; s.max = s.max.replace('+00', '+01'); }],
  [P, 'rg0 u64: statistics.max', (d) => { col(d, 0, 'u64').statistics.max = '18446744073709551614'; }],
  [P, 'rg0 cat: statistics.max', (d) => { col(d, 0, 'cat').statistics.max = 'unicode'; }],
  [P, 'rg1 li32.list.element: num_values', (d) => { col(d, 1, 'li32.list.element').num_values -= 1; }],
];
for (const [file, label, mutate] of mutations) {
  const name = `detects ${file}: ${label}`;
  try {
    const { duck, raw, ours } = await load(file);
    mutate(ours);
    const r = compareInspect(duck, ours, raw);
    if (r.items.length === 0) bad(name, 'no mismatch reported');
    else ok(`${name}  -> ${r.items[0].where}: ${r.items[0].field}`);
  } catch (e) {
    bad(name, e.message);
  }
}
finish();

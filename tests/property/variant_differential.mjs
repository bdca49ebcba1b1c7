#!/usr/bin/env node
// Differential property test of VARIANT filters and their pruning (issue 22): random JSON
// documents written by `pqsift convert --variant` three ways (shredded by a given schema,
// shredded as inferred, unshredded), random path predicates; for each file and predicate
//   pqsift scan --where P                 (pruned)
//   pqsift scan --where P --no-prune      (unpruned)
// must return the same ids in the same order, the shredded files the same ids as the
// unshredded file (the same predicate over the same values), and, where DuckDB evaluates the
// predicate (translated: variant_get -> TRY_CAST of the path; cases DuckDB rejects are
// dropped and counted), the same ids as DuckDB reading the same pqsift-written file.
//
//   node tests/property/variant_differential.mjs --pqsift PATH [--seed S] [--files F]
//        [--cases N] [--workdir D] [--min-pruned-share X]
//
// --min-pruned-share X fails the run when fewer than X (0..1) of the cases over the shredded,
// sorted files left a page or row group unread (a pqsift that stopped pruning shredded paths
// would otherwise pass). The last line is `property_variant: PASS|FAIL ...`; exit 1 on FAIL.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const NAME = 'property_variant';

const args = { seed: 1, files: 6, cases: 180, minPrunedShare: 0 };
for (let i = 2; i < process.argv.length; i++) {
  const x = process.argv[i];
  const val = () => process.argv[++i];
  if (x === '--pqsift') args.pqsift = val();
  else if (x === '--seed') args.seed = Number(val());
  else if (x === '--files') args.files = Number(val());
  else if (x === '--cases') args.cases = Number(val());
  else if (x === '--workdir') args.workdir = val();
  else if (x === '--min-pruned-share') args.minPrunedShare = Number(val());
  else { console.error(`${NAME}: unknown argument ${x}`); process.exit(2); }
}
if (!args.pqsift) { console.error(`${NAME}: --pqsift PATH is required`); process.exit(2); }
args.workdir ??= fs.mkdtempSync('/tmp/variant_prop_');
fs.mkdirSync(args.workdir, { recursive: true });

let duckdb;
try {
  duckdb = await import(path.join(repo, 'tools/peers/node_modules/@duckdb/node-api/lib/index.js'));
} catch (e) {
  console.log(`${NAME}: FAIL: DuckDB (tools/peers/node_modules) not found: ${e.message}`);
  process.exit(1);
}

// mulberry32: everything is a function of the seed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// One event: mostly well-typed fields (shredded), sometimes another type (the `value`
// fallback), missing, null, extra keys (the object's residual), or not an object at all. In
// the sorted files such messy rows come in runs (a fifth of the rows), so that some pages have
// no fallback values and can be pruned, and others must not be.
function randomDoc(r, id, sorted, rows) {
  if (sorted && id % 300 >= 60) {
    const doc = { user_id: Math.floor((id * 500) / rows), name: `n${Math.floor(r() * 40)}` };
    doc.score = Math.floor(r() * 1000) / 4 + 0.25;
    doc.flag = r() < 0.5;
    return doc;
  }
  const p = r();
  if (p < 0.02) return null;
  if (p < 0.04) return [1, 'x'];
  if (p < 0.06) return Math.floor(r() * 100);
  const doc = {};
  const uid = sorted ? Math.floor((id * 500) / rows) : Math.floor(r() * 500);
  const q = r();
  if (q < 0.85) doc.user_id = uid;
  else if (q < 0.9) doc.user_id = String(uid);
  else if (q < 0.93) doc.user_id = uid + 0.25;
  else if (q < 0.96) doc.user_id = null;
  if (r() < 0.9) doc.name = `n${Math.floor(r() * 40)}`;
  else if (r() < 0.5) doc.name = Math.floor(r() * 40);
  if (r() < 0.8) doc.score = Math.floor(r() * 1000) / 4 + 0.25;
  if (r() < 0.8) doc.flag = r() < 0.5;
  if (r() < 0.3) doc.o = { b: Math.floor(r() * 10), c: 'z' };
  if (r() < 0.3) doc.arr = [Math.floor(r() * 5), Math.floor(r() * 5)];
  return doc;
}

// JSON text with object keys sorted, numbers as JavaScript prints them.
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function pick(r, xs) { return xs[Math.floor(r() * xs.length)]; }

// A predicate in pqsift's language and DuckDB's (null: DuckDB has no equivalent).
function randomPredicate(r) {
  const k = Math.floor(r() * 520);
  const atoms = [
    () => [`variant_get(v, '$.user_id', 'BIGINT') = ${k}`, `TRY_CAST(v.user_id AS BIGINT) = ${k}`],
    () => [`variant_get(v, '$.user_id', 'BIGINT') < ${k}`, `TRY_CAST(v.user_id AS BIGINT) < ${k}`],
    () => [`variant_get(v, '$.user_id', 'BIGINT') BETWEEN ${k} AND ${k + 20}`,
           `TRY_CAST(v.user_id AS BIGINT) BETWEEN ${k} AND ${k + 20}`],
    () => [`CAST(v.user_id AS BIGINT) IN (${k}, ${k + 1}, 7)`, `TRY_CAST(v.user_id AS BIGINT) IN (${k}, ${k + 1}, 7)`],
    () => [`v.user_id >= ${k}`, `v.user_id >= ${k}`],
    () => [`v.user_id = ${k}`, `v.user_id = ${k}`],
    () => [`variant_get(v, '$.user_id', 'BIGINT') IS NULL`, `TRY_CAST(v.user_id AS BIGINT) IS NULL`],
    () => [`v.user_id IS NOT NULL`, `v.user_id IS NOT NULL`],
    () => [`v.name = 'n${k % 40}'`, `v.name = 'n${k % 40}'`],
    () => [`variant_get(v, '$.name', 'VARCHAR') LIKE 'n1%'`, `TRY_CAST(v.name AS VARCHAR) LIKE 'n1%'`],
    () => [`v.score > ${k / 2}`, `v.score > ${k / 2}`],
    () => [`variant_get(v, '$.score', 'DOUBLE') < ${k / 3}`, `TRY_CAST(v.score AS DOUBLE) < ${k / 3}`],
    () => [`v.flag`, `v.flag`],
    () => [`variant_get(v, '$.flag', 'BOOLEAN') = FALSE`, `TRY_CAST(v.flag AS BOOLEAN) = FALSE`],
    () => [`variant_get(v, '$.o.b', 'BIGINT') = ${k % 10}`, `TRY_CAST(v.o.b AS BIGINT) = ${k % 10}`],
    () => [`v.arr[1] = ${k % 5}`, `v.arr[1] = ${k % 5}`],
    () => [`variant_get(v, '$.arr[1]', 'BIGINT') = ${k % 5}`, `TRY_CAST(v.arr[2] AS BIGINT) = ${k % 5}`],
    () => [`id < ${k * 4}`, `id < ${k * 4}`],
  ];
  const atom = () => pick(r, atoms)();
  const shape = r();
  if (shape < 0.55) return atom();
  const [a, b] = [atom(), atom()];
  if (shape < 0.75) return [`(${a[0]}) AND (${b[0]})`, `(${a[1]}) AND (${b[1]})`];
  if (shape < 0.9) return [`(${a[0]}) OR (${b[0]})`, `(${a[1]}) OR (${b[1]})`];
  return [`NOT (${a[0]})`, `NOT (${a[1]})`];
}

function run(argv) {
  const res = spawnSync(args.pqsift, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: res.status, out: res.stdout ?? '', err: (res.stderr ?? '').trim() };
}

function ids(out) {
  return out.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l).id);
}

const instance = await duckdb.DuckDBInstance.create(':memory:');
const con = await instance.connect();
async function duckIds(file, where) {
  try {
    const res = await con.runAndReadAll(`SELECT id FROM read_parquet('${file}') WHERE ${where} ORDER BY id`);
    return res.getRowsJson().map((row) => Number(row[0]));
  } catch (e) {
    return { error: e.message.split('\n')[0] };
  }
}

const totals = { cases: 0, duckCompared: 0, duckRejected: 0, pqsiftRejected: 0, prunable: 0, pruned: 0,
                 readBack: 0 };
const problems = [];
const r = rng(args.seed);
const perFile = Math.max(1, Math.ceil(args.cases / args.files));
for (let f = 0; f < args.files; f++) {
  const rows = 600 + Math.floor(r() * 1400);
  const sorted = f % 2 === 0;
  const lines = [];
  for (let id = 0; id < rows; id++) {
    const doc = randomDoc(r, id, sorted, rows);
    lines.push(JSON.stringify(doc === null ? { id } : { id, v: doc }));
  }
  // The first line always has a v object, so the column exists in the inference sample.
  lines.unshift(JSON.stringify({ id: rows, v: { user_id: 0, name: 'n0', score: 0.25, flag: true } }));
  const jsonl = path.join(args.workdir, `f${f}.jsonl`);
  fs.writeFileSync(jsonl, lines.join('\n') + '\n');
  const layout = ['--row-group-rows', String(200 + Math.floor(r() * 400)), '--page-rows', String(20 + Math.floor(r() * 60))];
  const files = {
    given: ['--shred', 'v:user_id:int64,name:string,score:double,flag:boolean'],
    inferred: ['--variant', 'v', '--infer-rows', '50'],
    plain: ['--shred', 'v:'],
  };
  const paths = {};
  for (const [kind, flags] of Object.entries(files)) {
    paths[kind] = path.join(args.workdir, `f${f}_${kind}.parquet`);
    const c = run(['convert', jsonl, paths[kind], ...flags, ...layout]);
    if (c.code !== 0) { problems.push(`convert ${kind} of ${jsonl}: ${c.err}`); continue; }
  }
  if (problems.length) break;
  // DuckDB reads every layout back to the same values (as JSON): the plain file to the JSON
  // written (compared as values: keys in any order), the shredded ones to the plain one's.
  const plainRows = await con.runAndReadAll(`SELECT id, v::JSON::VARCHAR FROM read_parquet('${paths.plain}') ORDER BY id`);
  const written = new Map(lines.map((l) => JSON.parse(l)).map((o) => [o.id, o.v ?? null]));
  let mismatches = 0;
  for (const [id, text] of plainRows.getRowsJson()) {
    const want = canonical(written.get(Number(id)));
    const got = canonical(text === null ? null : JSON.parse(text));
    if (want !== got && mismatches++ < 3) problems.push(`DuckDB reads id ${id} of ${paths.plain} as ${got}, written ${want}`);
  }
  if (plainRows.getRowsJson().length !== written.size) problems.push(`DuckDB reads ${plainRows.getRowsJson().length} rows of ${paths.plain}, ${written.size} written`);
  for (const kind of ['given', 'inferred']) {
    const other = await con.runAndReadAll(`SELECT id, v::JSON::VARCHAR FROM read_parquet('${paths[kind]}') ORDER BY id`);
    if (JSON.stringify(other.getRowsJson()) !== JSON.stringify(plainRows.getRowsJson())) {
      problems.push(`DuckDB reads ${paths[kind]} differently from ${paths.plain}`);
    } else {
      totals.readBack++;
    }
  }
  for (let c = 0; c < perFile; c++) {
    const [where, duckWhere] = randomPredicate(r);
    totals.cases++;
    const results = {};
    for (const [kind, file] of Object.entries(paths)) {
      const statsPath = path.join(args.workdir, 'stats.json');
      const pruned = run(['scan', file, '--where', where, '--select', 'id', '--format', 'jsonl', '--stats-json', statsPath]);
      const unpruned = run(['scan', file, '--where', where, '--select', 'id', '--format', 'jsonl', '--no-prune']);
      if (pruned.code !== 0 || unpruned.code !== 0) {
        problems.push(`${file} --where "${where}": exit ${pruned.code}/${unpruned.code}: ${pruned.err || unpruned.err}`);
        continue;
      }
      if (pruned.out !== unpruned.out) {
        problems.push(`${file} --where "${where}": pruned != --no-prune (${ids(pruned.out).length} vs ${ids(unpruned.out).length} rows)`);
      }
      results[kind] = ids(unpruned.out).sort((a, b) => a - b);
      if (kind === 'given' && sorted && /user_id/.test(where)) {
        totals.prunable++;
        const s = JSON.parse(fs.readFileSync(statsPath, 'utf8'));
        if (Number(s.row_groups_read) < Number(s.row_groups_total ?? s.row_groups) ||
            Number(s.pages_read) < Number(s.pages_total)) {
          totals.pruned++;
        }
      }
    }
    for (const kind of ['given', 'inferred']) {
      if (results[kind] && results.plain && JSON.stringify(results[kind]) !== JSON.stringify(results.plain)) {
        problems.push(`--where "${where}": ${paths[kind]} gives ${results[kind].length} rows, ${paths.plain} ${results.plain.length}`);
      }
    }
    const duck = await duckIds(paths.given, duckWhere);
    if (duck.error) {
      totals.duckRejected++;
    } else if (results.given) {
      totals.duckCompared++;
      if (JSON.stringify(duck) !== JSON.stringify(results.given)) {
        const onlyP = results.given.filter((x) => !duck.includes(x)).slice(0, 5);
        const onlyD = duck.filter((x) => !results.given.includes(x)).slice(0, 5);
        problems.push(`${paths.given} --where "${where}" (DuckDB: ${duckWhere}): pqsift ${results.given.length} rows, DuckDB ${duck.length}; only pqsift ids ${onlyP}, only DuckDB ${onlyD}`);
      }
    }
    if (problems.length >= 10) break;
  }
  if (problems.length >= 10) break;
}

const share = totals.prunable ? totals.pruned / totals.prunable : 0;
console.log(`${NAME}: ${totals.cases} cases, ${totals.duckCompared} compared with DuckDB (${totals.duckRejected} it rejects), ` +
            `${totals.readBack} shredded files read back by DuckDB as the unshredded one, ` +
            `pruned ${totals.pruned}/${totals.prunable} prunable cases`);
for (const p of problems.slice(0, 10)) console.log(`  ${p}`);
const fail = problems.length > 0 || share < args.minPrunedShare;
if (share < args.minPrunedShare) console.log(`  pruned share ${share.toFixed(3)} < ${args.minPrunedShare}`);
console.log(`${NAME}: ${fail ? 'FAIL' : 'PASS'}`);
process.exit(fail ? 1 : 0);

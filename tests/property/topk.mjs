#!/usr/bin/env node
// Differential property test of top-k: for random files (generate.mjs) and random ORDER BY
// lists, `pqsift scan FILE --order-by KEYS --limit K --format jsonl` must give a right answer
// by DuckDB's `SELECT * FROM file ORDER BY KEYS` (the oracle, in process):
//   - min(K, rows) rows, whose ORDER BY keys are, in order, DuckDB's first K keys;
//   - the rows of each key tuple but the last, as a multiset, DuckDB's rows of that tuple; the
//     rows of the last tuple (where LIMIT cuts ties) drawn from DuckDB's rows of that tuple.
// Values are canonical (tests/interop/compare_scan.mjs) with -0 read as 0: ORDER BY ties them,
// and DuckDB's sort returns -0 as 0. Each case also runs with --no-prune, judged the same way.
//
//   node tests/property/topk.mjs --pqsift PATH [--files F] [--cases N] [--seed S] [--workdir D]
//        [--min-skipped-share X]
//
// --min-skipped-share X fails the run when fewer than X of the cases skipped a row group at
// runtime (from --stats-json), so a top-k that stopped pruning is noticed.
// The last line is `property_topk: PASS|FAIL ...`; exit 1 on FAIL.

import fs from 'node:fs';
import path from 'node:path';
import { CommandPool } from '../lib/command_pool.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');
const NAME = 'property_topk';
const pool = new CommandPool(2);

const args = { files: 12, cases: 144, seed: 1, minSkippedShare: 0 };
for (let i = 2; i < process.argv.length; i++) {
  const x = process.argv[i];
  const val = () => process.argv[++i];
  if (x === '--pqsift') args.pqsift = path.resolve(val());
  else if (x === '--files') args.files = Number(val());
  else if (x === '--cases') args.cases = Number(val());
  else if (x === '--seed') args.seed = val();
  else if (x === '--workdir') args.workdir = val();
  else if (x === '--min-skipped-share') args.minSkippedShare = Number(val());
  else { process.stdout.write(`${NAME}: unknown argument ${x}\n`); process.exit(2); }
}
if (!args.pqsift || !fs.existsSync(args.pqsift)) {
  process.stdout.write(`${NAME}: FAIL: --pqsift binary not found\n`);
  process.exit(1);
}
if (!fs.existsSync(path.join(peers, 'node_modules/@duckdb/node-api/package.json'))) {
  process.stdout.write(`${NAME}: FAIL: ${peers}/node_modules lacks @duckdb/node-api; run scripts/setup\n`);
  process.exit(1);
}
const gen = await import(pathToFileURL(path.join(here, 'generate.mjs')));
const cmp = await import(pathToFileURL(path.resolve(here, '../interop/compare_scan.mjs')));
const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js')));

const workdir = path.resolve(args.workdir ?? path.join(process.env.TMPDIR ?? '/tmp', `pqsift-topk-${args.seed}`));
fs.rmSync(workdir, { recursive: true, force: true });
fs.mkdirSync(workdir, { recursive: true });
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
await con.run(`SET TimeZone = 'UTC'`);

const SEP = '\u0001';
const sqlPath = (p) => `'${p.replaceAll("'", "''")}'`;
const shq = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
const keyCanon = (c) => (c === 'f:-0' ? 'f:0' : c);

async function duckOrdered(file, orderSql, keyNames) {
  const result = await con.run(`SELECT * FROM read_parquet(${sqlPath(file)}) ORDER BY ${orderSql}`);
  const names = result.columnNames();
  const descs = result.columnTypes().map(cmp.typeDesc);
  const keyAt = keyNames.map((k) => names.indexOf(k));
  const rows = [];
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const vectors = names.map((_, c) => chunk.getColumnVector(c));
    for (let r = 0; r < chunk.rowCount; r++) {
      const cells = vectors.map((v, c) => keyCanon(cmp.canonDuck(descs[c], v.getItem(r))));
      rows.push({ row: cells.join(SEP), key: keyAt.map((c) => keyCanon(cells[c])).join(SEP) });
    }
  }
  return { names, descs, keyAt, rows };
}

function oursOrdered(stdout, duck) {
  const lines = stdout.split('\n').filter((l) => l !== '');
  return lines.map((line) => {
    const obj = cmp.parseJsonLine(line);
    const cells = obj.members.map((m, c) => keyCanon(cmp.canonOurs(duck.descs[c], m[1])));
    if (obj.members.length !== duck.names.length) throw new Error(`line has ${obj.members.length} columns: ${line.slice(0, 200)}`);
    return { row: cells.join(SEP), key: duck.keyAt.map((c) => keyCanon(cells[c])).join(SEP) };
  });
}

// Problems with `ours` as an answer to ORDER BY ... LIMIT k, judged by DuckDB's full order.
function judge(ours, duck, k) {
  const want = Math.min(k, duck.rows.length);
  if (ours.length !== want) return [`${ours.length} rows, expected ${want}`];
  for (let i = 0; i < want; i++) {
    if (ours[i].key !== duck.rows[i].key) {
      return [`row ${i + 1}: key ${ours[i].key.split(SEP).join(', ')}, DuckDB's ${duck.rows[i].key.split(SEP).join(', ')}`];
    }
  }
  const byKey = (rows) => {
    const m = new Map();
    for (const r of rows) { if (!m.has(r.key)) m.set(r.key, []); m.get(r.key).push(r.row); }
    return m;
  };
  const duckAll = byKey(duck.rows);
  const mine = byKey(ours);
  const lastKey = want ? ours[want - 1].key : null;
  const problems = [];
  for (const [key, rows] of mine) {
    const pool = [...duckAll.get(key)];
    for (const row of rows) {
      const at = pool.indexOf(row);
      if (at < 0) { problems.push(`row not in DuckDB's rows of its key: ${row.split(SEP).join(', ').slice(0, 300)}`); break; }
      pool.splice(at, 1);
    }
    if (key !== lastKey && pool.length) problems.push(`key ${key.split(SEP).join(', ')}: ${pool.length} of DuckDB's rows missing`);
  }
  return problems;
}

const totals = { cases: 0, failures: 0, skippedCases: 0, rows: 0, files: 0 };
const started = Date.now();
const perFile = Math.ceil(args.cases / args.files);
for (let f = 0; f < args.files; f++) {
  const spec = gen.generateFileSpec(gen.rngFor('file', args.seed, f), f, args.seed);
  const file = path.join(workdir, `${spec.name}.parquet`);
  try {
    await gen.writeFile(con, spec, file);
  } catch (e) {
    totals.failures++;
    process.stdout.write(`FAIL writing ${spec.name}: ${e.message.split('\n')[0]}\n`);
    continue;
  }
  totals.files++;
  const head = await con.runAndReadAll(`SELECT * FROM read_parquet(${sqlPath(file)}) LIMIT 0`);
  const kinds = head.columnTypes().map(cmp.typeDesc);
  const sortable = head.columnNames().filter((_, c) => kinds[c].kind !== 'STRUCT');
  for (let j = 0; j < perFile && sortable.length; j++) {
    const rng = gen.rngFor('topk', args.seed, f, j);
    const keys = rng.shuffle([...sortable]).slice(0, rng.int(1, Math.min(3, sortable.length))).map((name) => ({
      name, desc: rng.chance(0.5), nulls: rng.pick([null, 'FIRST', 'LAST']),
    }));
    const orderBy = keys.map((k) => `${k.name}${k.desc ? ' DESC' : rng.chance(0.3) ? ' ASC' : ''}${k.nulls ? ` NULLS ${k.nulls}` : ''}`).join(', ');
    // DuckDB's default is NULLS LAST whatever the direction; spelled out for the oracle.
    const orderSql = keys.map((k) => `${k.name}${k.desc ? ' DESC' : ' ASC'} NULLS ${k.nulls ?? 'LAST'}`).join(', ');
    const limit = rng.weighted([[1, 0], [3, 1], [6, rng.int(2, 50)], [3, rng.int(50, 3000)], [1, spec.rows + 5]]);
    const statsPath = path.join(workdir, 'stats.json');
    fs.rmSync(statsPath, { force: true });
    const argv = ['scan', file, '--order-by', orderBy, '--limit', String(limit), '--format', 'jsonl',
                  '--threads', String(rng.pick([1, 2])), '--batch-size', String(rng.pick([100, 1000, 65536])),
                  '--stats-json', statsPath];
    const [pruned, unpruned] = await Promise.all([pool.run([args.pqsift, ...argv]),
                                                  pool.run([args.pqsift, ...argv.slice(0, -2), '--no-prune'])]);
    totals.cases++;
    const duck = await duckOrdered(file, orderSql, keys.map((k) => k.name));
    const problems = [];
    for (const [label, run] of [['pruned', pruned], ['unpruned', unpruned]]) {
      if (run.status !== 0) { problems.push(`${label}: exit ${run.status} ${run.signal ?? ''}: ${run.stderr.trim().slice(0, 300)}`); continue; }
      try {
        for (const p of judge(oursOrdered(run.stdout, duck), duck, limit)) problems.push(`${label}: ${p}`);
      } catch (e) {
        problems.push(`${label}: ${e.message}`);
      }
    }
    if (fs.existsSync(statsPath)) {
      const s = JSON.parse(fs.readFileSync(statsPath, 'utf8'));
      if (Number(s.row_groups_skipped_at_runtime) > 0) totals.skippedCases++;
    }
    totals.rows += Math.min(limit, duck.rows.length);
    if (problems.length) {
      totals.failures++;
      process.stdout.write([`=== MISMATCH: file ${f} case ${j} (seed ${args.seed}): ${spec.writer} ${JSON.stringify(spec.options)}, ${spec.rows} rows`,
        `  ${[args.pqsift, ...argv].map(shq).join(' ')}`,
        `  duckdb: SELECT * FROM read_parquet(${sqlPath(file)}) ORDER BY ${orderSql} LIMIT ${limit}`,
        ...problems.slice(0, 6).map((p) => `  ${p}`), ''].join('\n'));
      if (totals.failures >= 10) break;
    } else {
      fs.rmSync(statsPath, { force: true });
    }
  }
  if (totals.failures >= 10) break;
}
const share = totals.cases ? totals.skippedCases / totals.cases : 0;
process.stdout.write(`${NAME}: seed ${args.seed}: ${totals.files} files, ${totals.cases} cases (${totals.rows} rows compared) in ` +
  `${((Date.now() - started) / 1000).toFixed(0)} s; ${totals.skippedCases} cases skipped row groups at runtime; ${totals.failures} failing\n`);
const reasons = [];
if (totals.failures) reasons.push(`${totals.failures} failing cases`);
if (totals.cases === 0) reasons.push('no case ran');
if (share < args.minSkippedShare) reasons.push(`only ${(100 * share).toFixed(1)}% of the cases skipped a row group at runtime (--min-skipped-share ${args.minSkippedShare})`);
process.stdout.write(reasons.length ? `${NAME}: FAIL: ${reasons.join('; ')}\n` : `${NAME}: PASS\n`);
process.exit(reasons.length ? 1 : 0);

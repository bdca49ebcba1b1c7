#!/usr/bin/env node
// Differential property test of dataset pruning: random hive-partitioned datasets (random
// partition keys and values, NULL partitions, random file counts, schema evolution: columns
// added in some files, INTEGER widened to BIGINT, FLOAT to DOUBLE; with a manifest present,
// absent or stale) and random predicates over partition and file columns. For each case
//   pqsift scan DIR --where P --select C --format jsonl              (pruned)
//   pqsift scan DIR --where P --select C --format jsonl --no-prune   (unpruned)
//   DuckDB: SELECT C FROM read_parquet([files], hive_partitioning=true, union_by_name=true)
//           WHERE P                                                 (the oracle)
// pruned must equal unpruned byte for byte, and both must equal DuckDB as multisets of rows
// (every value compared as text). All DuckDB work runs in this one process.
//
//   node tests/property/dataset_differential.mjs --pqsift PATH [--seed S] [--datasets N]
//        [--cases-per-dataset K] [--workdir D] [--min-skipped-share X]
//
// --min-skipped-share X fails the run when fewer than X of the cases skipped a file (read from
// --stats-json: files_skipped), so a pqsift that stopped pruning files is noticed.
// The last line is `dataset_differential: PASS|FAIL ...`; exit 1 on FAIL.
import fs from 'node:fs';
import path from 'node:path';
import { CommandPool } from '../lib/command_pool.mjs';
import { startHarness } from './harness.mjs';
import { Rng, hash32 } from './generate.mjs';

const NAME = 'dataset_differential';
const { args, workdir, con, query } = await startHarness({
  name: NAME,
  defaults: { seed: '1', datasets: 16, casesPerDataset: 10, minSkippedShare: 0 },
  threshold: ['--min-skipped-share', 'minSkippedShare'],
  workdirPrefix: 'pqsift-dataset',
});
await con.run("SET TimeZone='UTC'");

const STRINGS = ['ant', 'bee', 'cat', 'dog', 'eel', 'a b', 'x/y'];
const DATES = ['2024-01-01', '2024-01-02', '2024-01-15', '2024-02-29', '2025-12-31'];

function partitionSpecs(rng) {
  const all = [
    { name: 'p_int', values: () => String(rng.int(-3, 12)), kind: 'int' },
    { name: 'p_date', values: () => rng.pick(DATES), kind: 'date' },
    { name: 'p_str', values: () => (rng.chance(0.15) ? null : rng.pick(STRINGS)), kind: 'str' },
  ];
  const keys = rng.shuffle(all.slice()).slice(0, rng.int(0, 2));
  return keys;
}
const encode = (v) => (v === null ? '__HIVE_DEFAULT_PARTITION__' : encodeURIComponent(v));

async function makeDataset(index) {
  const rng = new Rng(hash32(args.seed, 'dataset', index));
  const dir = path.join(workdir, `d${index}`);
  const keys = partitionSpecs(rng);
  const nfiles = rng.int(1, 12);
  const files = [];
  let id = 0;
  for (let f = 0; f < nfiles; f++) {
    const values = keys.map((k) => k.values());
    const folder = path.join(dir, ...keys.map((k, j) => `${k.name}=${encode(values[j])}`));
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `part-${String(f).padStart(3, '0')}.parquet`);
    // Some files hold several row groups (DuckDB cuts them at 2048 rows), for the splits.
    const rows = rng.chance(0.15) ? rng.int(2049, 6000) : rng.int(0, 300);
    const vType = rng.chance(0.5) ? 'INTEGER' : 'BIGINT';
    const fType = rng.chance(0.5) ? 'FLOAT' : 'DOUBLE';
    const base = rng.int(-1000, 1000);
    const cols = [`(${id} + i)::BIGINT AS id`, `(${base} + (hash(i, ${f}) % 500)::BIGINT)::${vType} AS v`];
    const hasS = rng.chance(0.6) || (f === nfiles - 1 && !files.some((x) => x.hasS));
    if (hasS) {
      cols.push(`CASE WHEN hash(i, 7, ${f}) % 5 = 0 THEN NULL ELSE chr(97 + (hash(i, ${f}) % 6)::INTEGER) END AS s`);
    }
    cols.push(`((hash(i, 3, ${f}) % 1000)::DOUBLE / 10 - 50)::${fType} AS x`);
    const order = rng.shuffle(cols.slice());
    await con.run(`COPY (SELECT ${order.join(', ')} FROM range(${rows}) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
    id += rows;
    files.push({ file, values, rows, hasS });
  }
  // Manifest: absent, fresh, or stale (written, then a file rewritten with other data).
  let manifest = rng.pick(['absent', 'fresh', 'stale']);
  if (process.env.PQSIFT_NO_MANIFEST) manifest = 'absent';
  return { index, dir, keys, files, manifest, rng };
}

function randomPredicate(rng, ds, everywhere = false) {
  const atoms = [];
  for (const k of ds.keys) {
    const seen = ds.files.map((f) => f.values[ds.keys.indexOf(k)]);
    const some = rng.pick(seen);
    if (k.kind === 'int') {
      const v = some ?? 0;
      atoms.push(`p_int = ${v}`, `p_int >= ${v}`, `p_int BETWEEN ${v} AND ${Number(v) + rng.int(0, 4)}`,
                 `p_int IN (${v}, ${rng.int(-3, 12)})`, `p_int <> ${v}`);
    } else if (k.kind === 'date') {
      atoms.push(`p_date = DATE '${some}'`, `p_date < DATE '${rng.pick(DATES)}'`, `p_date >= '${some}'`);
    } else {
      atoms.push(some === null ? 'p_str IS NULL' : `p_str = '${some}'`, 'p_str IS NOT NULL',
                 `p_str > '${rng.pick(STRINGS)}'`, `p_str LIKE '${rng.pick(STRINGS)[0]}%'`);
    }
  }
  atoms.push(`v > ${rng.int(-1200, 1500)}`, `v < ${rng.int(-1200, 1500)}`, `id BETWEEN ${rng.int(0, 800)} AND ${rng.int(0, 1600)}`,
             `id >= ${rng.int(0, 20000)}`, `x < ${rng.int(-60, 60)}`, 'TRUE');
  // s is not in every file: a scan of one split of a file without it could not bind it.
  if (!everywhere) atoms.push('s IS NULL', `s = '${rng.pick(['a', 'b', 'c'])}'`);
  const atom = () => rng.pick(atoms);
  const form = rng.int(0, 5);
  if (form === 0) return atom();
  if (form === 1 || form === 2) return `${atom()} AND ${atom()}`;
  if (form === 3) return `(${atom()} OR ${atom()})`;
  if (form === 4) return `NOT (${atom()}) AND ${atom()}`;
  return `${atom()} AND (${atom()} OR ${atom()})`;
}

// Through a pool of small workers: spawning from this process, which holds DuckDB, is slow.
const pool = new CommandPool(2);
async function pqsift(argv) {
  const r = await pool.run([args.pqsift, ...argv]);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

const text = (v) => (v === null || v === undefined ? 'NULL' : String(v));
function pqsiftRows(out, cols) {
  return out.trim() === '' ? [] : out.trim().split('\n').map((line) => {
    const o = JSON.parse(line);
    return cols.map((c) => text(o[c])).join('|');
  });
}

let splitChecks = 0, splitCount = 0;
let cases = 0, compared = 0, skippedCases = 0, failures = 0, manifestSkips = 0;
const start = Date.now();
for (let d = 0; d < args.datasets; d++) {
  const ds = await makeDataset(d);
  const rng = ds.rng;
  if (ds.manifest !== 'absent') {
    const r = await pqsift(['index', ds.dir]);
    if (r.code !== 0) { failures++; process.stdout.write(`index failed for ${ds.dir}: ${r.stderr}`); continue; }
    if (ds.manifest === 'stale') {
      // Rewrite one file with other rows: its size or mtime changes, so the manifest's entry is
      // stale and must not be used for it.
      const victim = rng.pick(ds.files);
      await con.run(`COPY (SELECT (100000 + i)::BIGINT AS id, (5000 + i)::BIGINT AS v, 'zz' AS s, 99.5::DOUBLE AS x FROM range(7) t(i)) TO '${victim.file}' (FORMAT parquet)`);
    }
  }
  // The oracle reads the files once into a table: DuckDB's own Parquet pruning is not part of it.
  const fileList = ds.files.map((f) => `'${f.file}'`).join(', ');
  await con.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM read_parquet([${fileList}], hive_partitioning=true, union_by_name=true)`);
  for (let c = 0; c < args.casesPerDataset; c++) {
    cases++;
    const where = randomPredicate(rng, ds);
    const names = ['id', 'v', 's', ...ds.keys.map((k) => k.name)];
    const cols = rng.shuffle(names.slice()).slice(0, rng.int(1, names.length));
    const stats = path.join(workdir, 'stats.json');
    const base = ['scan', ds.dir, '--where', where, '--select', cols.join(','), '--format', 'jsonl'];
    const [pruned, unpruned] = await Promise.all([pqsift([...base, '--threads', String(rng.int(1, 2)), '--stats-json', stats]),
                                                  pqsift([...base, '--no-prune', '--threads', '1'])]);
    let duck;
    try {
      const sel = cols.map((col) => `CAST("${col}" AS VARCHAR)`).join(', ');
      duck = (await query(`SELECT ${sel} FROM t WHERE ${where}`))
        .map((row) => row.map(text).join('|'));
    } catch (e) {
      duck = { error: String(e.message ?? e).split('\n')[0] };
    }
    const repro = `case ${d}.${c}: pqsift scan ${ds.dir} --where "${where}" --select ${cols.join(',')} --format jsonl (manifest ${ds.manifest})`;
    if (pruned.code !== 0 || unpruned.code !== 0) {
      failures++;
      process.stdout.write(`FAIL ${repro}\n  pqsift exit ${pruned.code}/${unpruned.code}: ${pruned.stderr.trim()} ${unpruned.stderr.trim()}\n`);
      continue;
    }
    if (pruned.stdout !== unpruned.stdout) {
      failures++;
      process.stdout.write(`FAIL ${repro}\n  PRUNED != UNPRUNED\n`);
      continue;
    }
    if (duck.error) {
      failures++;
      process.stdout.write(`FAIL ${repro}\n  DuckDB rejects: ${duck.error}\n`);
      continue;
    }
    const ours = pqsiftRows(pruned.stdout, cols).sort();
    duck.sort();
    if (ours.length !== duck.length || ours.some((r, i) => r !== duck[i])) {
      failures++;
      const onlyOurs = ours.filter((r) => !duck.includes(r)).slice(0, 3);
      const onlyDuck = duck.filter((r) => !ours.includes(r)).slice(0, 3);
      process.stdout.write(`FAIL ${repro}\n  PQSIFT != DUCKDB: ${ours.length} vs ${duck.length} rows; only pqsift ${JSON.stringify(onlyOurs)}; only duckdb ${JSON.stringify(onlyDuck)}\n`);
      continue;
    }
    compared++;
    const s = JSON.parse(fs.readFileSync(stats, 'utf8'));
    if (s.files_total !== ds.files.length) {
      failures++;
      process.stdout.write(`FAIL ${repro}\n  files_total ${s.files_total}, the dataset has ${ds.files.length}\n`);
    }
    if (s.files_skipped > 0) skippedCases++;
    if (s.files_skipped_by_manifest > 0) manifestSkips++;
    if (failures >= 10) break;
  }
  if (failures >= 10) break;
  // Splits: the rows of every split, scanned one by one, are the rows of the whole scan, each
  // once (ids are unique in a dataset).
  {
    splitChecks++;
    const where = randomPredicate(rng, ds, true);
    const target = rng.pick([1, 500, 5000, 50000, 1 << 30]);
    const listed = await pqsift(['splits', ds.dir, '--target-bytes', String(target), '--where', where]);
    const whole = await pqsift(['scan', ds.dir, '--where', where, '--select', 'id', '--format', 'jsonl']);
    const repro = `splits of ${ds.dir} --target-bytes ${target} --where "${where}"`;
    if (listed.code !== 0 || whole.code !== 0) {
      failures++;
      process.stdout.write(`FAIL ${repro}: exit ${listed.code}/${whole.code}: ${listed.stderr.trim()} ${whole.stderr.trim()}\n`);
      continue;
    }
    const splits = listed.stdout.trim() === '' ? [] : listed.stdout.trim().split('\n');
    splitCount += splits.length;
    const ids = [];
    let bad = null;
    for (const split of splits) {
      const part = await pqsift(['scan', '--split', split, '--where', where, '--select', 'id', '--format', 'jsonl']);
      if (part.code !== 0) { bad = `split ${split}: ${part.stderr.trim()}`; break; }
      ids.push(...pqsiftRows(part.stdout, ['id']));
    }
    const expected = pqsiftRows(whole.stdout, ['id']).sort();
    const sorted = ids.slice().sort();
    const dup = sorted.find((x, i) => i > 0 && sorted[i - 1] === x);
    if (!bad && dup !== undefined) bad = `row id ${dup} in two splits`;
    if (!bad && (sorted.length !== expected.length || sorted.some((x, i) => x !== expected[i]))) {
      bad = `${sorted.length} rows in the splits, ${expected.length} in the scan`;
    }
    if (bad) {
      failures++;
      process.stdout.write(`FAIL ${repro}: ${bad}\n`);
    }
  }
}
const share = compared ? skippedCases / compared : 0;
process.stdout.write(`${NAME}: seed ${args.seed}: ${args.datasets} datasets, ${cases} cases in ${((Date.now() - start) / 1000).toFixed(1)} s; ` +
                     `compared ${compared}, failing ${failures}; ${skippedCases} cases skipped a file (${(share * 100).toFixed(1)}%), ` +
                     `${manifestSkips} by the manifest; splits: ${splitChecks} datasets, ${splitCount} splits\n`);
if (failures === 0 && share < args.minSkippedShare) {
  process.stdout.write(`${NAME}: FAIL: only ${(share * 100).toFixed(1)}% of the cases skipped a file (--min-skipped-share ${args.minSkippedShare})\n`);
  process.exit(1);
}
process.stdout.write(`${NAME}: ${failures === 0 ? 'PASS' : 'FAIL'}\n`);
process.exit(failures === 0 ? 0 : 1);

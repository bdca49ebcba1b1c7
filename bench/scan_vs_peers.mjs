#!/usr/bin/env node
// Scan benchmark: pqsift against DuckDB and Polars on one 20M-row file (SNAPPY and ZSTD).
//
//   node bench/scan_vs_peers.mjs [--pqsift PATH] [--query-bench PATH] [--rows N] [--runs K] [--threads N]
//        [--only full|selective|pageindex|evidence|types|data] [--codec snappy|zstd] [--out FILE] [--data-dir DIR]
//        [--max-load L]
//
// Every measured run is its own child process (pqsift itself, or this script in --child mode for
// DuckDB and Polars), so thread settings, peak memory and bytes read are per engine and per run.
// Writes a Markdown report to stdout and bench/results/scan.md. See bench/README.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import {
  benchDir as here, cpuModel, fmt, gitRevision, loadDuckDB, loadPolars, mb, median, procIo, procStatusKb, requirePeers, root, sql,
  uptime, waitForQuiet as waitForQuietLogged,
} from './lib/common.mjs';
import { checkTimeInstalled, runLibrary as runQueryBench, runPqsift as runPqsiftCli } from './lib/pqsift.mjs';

const peers = path.join(root, 'tools', 'peers', 'node_modules');
const self = fileURLToPath(import.meta.url);

const GENERATOR_VERSION = 'scan-v1';
const EVIDENCE_ROW_GROUP = 1_000_000; // bump when the SQL below changes: invalidates bench/data
const FULL_ROWS = 20_000_000;
const ROW_GROUP_ROWS = 1_000_000;
const REGIONS = ['eu', 'us', 'apac', 'latam', 'mea', 'na', 'emea', 'anz'];
const COLUMNS = ['id', 'ts', 'region', 'price', 'qty', 'note'];

// The selective queries. Literals scale with --rows so that each selects the same fraction of a
// smaller file (ts spans the same 231 days whatever the row count, see generatorSql).
function selectiveQueries(rows) {
  const lo = Math.floor((12345678 * rows) / FULL_ROWS);
  const hi = lo + 100;
  const julyUs = Date.UTC(2026, 6, 1) * 1000; // TIMESTAMP (no time zone) is stored as UTC micros
  return [
    { name: `id BETWEEN ${lo} AND ${hi}`, where: `id BETWEEN ${lo} AND ${hi}`, count: false,
      polars: (pl) => pl.col('id').gtEq(pl.lit(lo).cast(pl.Int64)).and(pl.col('id').ltEq(pl.lit(hi).cast(pl.Int64))) },
    { name: 'count(*) WHERE id >= 0', where: 'id >= 0', count: true,
      polars: (pl) => pl.col('id').gtEq(pl.lit(0).cast(pl.Int64)) },
    { name: "region = 'eu'", where: "region = 'eu'", count: false,
      polars: (pl) => pl.col('region').eq(pl.lit('eu')) },
    { name: "ts >= TIMESTAMP '2026-07-01'", where: "ts >= TIMESTAMP '2026-07-01'", count: false,
      polars: (pl) => pl.col('ts').gtEq(pl.lit(julyUs).cast(pl.Datetime('us'))) },
  ];
}

// Queries on the one-row-group file with a page index (--only pageindex). ts rises one second
// per row at 20M rows, so the ts range below holds about a minute of rows near row 5,000,000.
function pageIndexQueries(rows) {
  const lo = Math.floor((12345678 * rows) / FULL_ROWS);
  const hi = lo + 100;
  const tsLo = Date.UTC(2026, 2, 1) * 1000;
  const tsHi = tsLo + 60 * 1e6;
  const idRange = (pl) => pl.col('id').gtEq(pl.lit(lo).cast(pl.Int64)).and(pl.col('id').ltEq(pl.lit(hi).cast(pl.Int64)));
  return [
    { name: `id BETWEEN ${lo} AND ${hi} (page index)`, where: `id BETWEEN ${lo} AND ${hi}`, count: false, polars: idRange },
    { name: 'id BETWEEN .. OR ts BETWEEN .. (page index)',
      where: `id BETWEEN ${lo} AND ${hi} OR ts BETWEEN TIMESTAMP '2026-03-01 00:00:00' AND TIMESTAMP '2026-03-01 00:01:00'`,
      count: false,
      polars: (pl) => idRange(pl).or(pl.col('ts').gtEq(pl.lit(tsLo).cast(pl.Datetime('us'))).and(pl.col('ts').ltEq(pl.lit(tsHi).cast(pl.Datetime('us'))))) },
    { name: 'qty < 50 (prunes nothing)', where: 'qty < 50', count: false, pruneNothing: true,
      polars: (pl) => pl.col('qty').lt(pl.lit(50).cast(pl.Int32)) },
  ];
}

// Queries of the evidence section (--only evidence, issue 7) on a file written by pqsift convert:
// row groups of 1,000,000 rows, a bloom filter on `key` (16 hex characters, unique, random: no
// statistic or dictionary can prune it), `cat` whose values are 'aaa', 'zzz' and one 'mNN' of its
// own per row group (min/max equal everywhere; only the dictionaries differ), ts rising with id.
function evidenceKey(i) {
  return createHash('md5').update(String(i)).digest('hex').slice(0, 16);
}
function evidenceQueries(rows) {
  const present = evidenceKey(Math.floor((12345678 * rows) / FULL_ROWS));
  const g = Math.min(7, Math.floor(rows / EVIDENCE_ROW_GROUP) - 1);
  const cat = `m${String((g * 7) % 20).padStart(2, '0')}`;
  return [
    { name: 'key = absent (bloom filter)', where: "key = '0123456789abcdef'", count: false,
      polars: (pl) => pl.col('key').eq(pl.lit('0123456789abcdef')) },
    { name: 'key = present (bloom filter)', where: `key = '${present}'`, count: false,
      polars: (pl) => pl.col('key').eq(pl.lit(present)) },
    { name: `cat = '${cat}' (dictionary, one row group)`, where: `cat = '${cat}'`, count: false,
      polars: (pl) => pl.col('cat').eq(pl.lit(cat)) },
    { name: 'ORDER BY ts DESC LIMIT 10 (top-k)', orderBy: 'ts DESC', limit: 10, count: false },
  ];
}

// ---------------------------------------------------------------------------------------------
// Child mode: one engine, one query, one run. Prints one JSON line on stdout.
//   --child duckdb|polars --file F --threads N --kind full|selective|column --arg X --rows N

async function child(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i += 2) o[argv[i].replace(/^--/, '')] = argv[i + 1];
  const threads = Number(o.threads);
  const file = o.file;
  const queries = [...selectiveQueries(Number(o.rows)), ...pageIndexQueries(Number(o.rows)),
                   ...evidenceQueries(Number(o.rows))];
  const query = o.kind === 'selective' ? queries.find((q) => q.name === o.arg) : null;
  if (o.kind === 'selective' && !query) throw new Error(`unknown query ${o.arg}`);
  let run;
  if (o.child === 'duckdb') {
    const { DuckDBInstance } = await loadDuckDB();
    const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
    const con = await instance.connect();
    await con.run(`SET threads = ${threads}`);
    // Materialised into an in-memory table: every value decoded and stored, nothing sent to JS.
    const materialise = async (select) => {
      await con.run(`CREATE OR REPLACE TABLE t AS ${select}`);
      return Number((await con.runAndReadAll('SELECT count(*)::BIGINT AS n FROM t')).getRowObjectsJson()[0].n);
    };
    const from = `read_parquet(${sql(file)})`;
    if (o.kind === 'full') run = () => materialise(`SELECT * FROM ${from}`);
    else if (o.kind === 'column') run = () => materialise(`SELECT "${o.arg}" FROM ${from}`);
    else if (query.count) {
      run = async () => Number((await con.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM ${from} WHERE ${query.where}`)).getRowObjectsJson()[0].n);
    } else if (query.orderBy) {
      run = () => materialise(`SELECT * FROM ${from} ORDER BY ${query.orderBy} LIMIT ${query.limit}`);
    } else run = () => materialise(`SELECT * FROM ${from} WHERE ${query.where}`);
  } else if (o.child === 'polars') {
    if (process.env.POLARS_MAX_THREADS !== String(threads)) throw new Error('POLARS_MAX_THREADS not set by the parent');
    const pl = await loadPolars();
    if (o.kind === 'full') run = async () => pl.readParquet(file).height;
    else if (o.kind === 'column') run = async () => pl.readParquet(file, { columns: [o.arg] }).height;
    else if (query.count) {
      run = async () => Number((await pl.scanParquet(file).filter(query.polars(pl)).select(pl.len().alias('n')).collect()).getColumn('n').get(0));
    } else if (query.orderBy) {
      const [col, dir] = query.orderBy.split(' ');
      run = async () => (await pl.scanParquet(file).sort(col, dir === 'DESC').limit(query.limit).collect()).height;
    } else run = async () => (await pl.scanParquet(file).filter(query.polars(pl)).collect()).height;
  } else throw new Error(`unknown engine ${o.child}`);

  const baselineKb = procStatusKb('VmHWM');
  const rchar0 = procIo('rchar');
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const rows = await run();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1e3;
  const rchar = procIo('rchar') - rchar0;
  process.stdout.write(JSON.stringify({ ms, cpuMs, rows, peakKb: procStatusKb('VmHWM'), baselineKb, bytesRead: rchar }) + '\n');
}

// ---------------------------------------------------------------------------------------------
// Parent mode

function usage(msg) {
  if (msg) process.stderr.write(`scan_vs_peers: ${msg}\n`);
  process.stderr.write('usage: node bench/scan_vs_peers.mjs [--pqsift PATH] [--query-bench PATH] [--rows N] [--runs K] [--threads N] ' +
                       '[--only full|selective|pageindex|evidence|types|data] [--codec snappy|zstd] [--out FILE] [--data-dir DIR] [--max-load L]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const a = {
    pqsift: path.join(root, 'build', 'src', 'pqsift'), queryBench: null, rows: FULL_ROWS, runs: 3, threads: 2,
    only: null, codecs: ['snappy', 'zstd'], out: path.join(here, 'results', 'scan.md'),
    dataDir: path.join(here, 'data'), maxLoad: 3,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => { if (i + 1 >= argv.length) usage(`${k} needs a value`); return argv[++i]; };
    if (k === '--pqsift') a.pqsift = path.resolve(v());
    else if (k === '--query-bench') a.queryBench = path.resolve(v());
    else if (k === '--rows') a.rows = Number(v());
    else if (k === '--runs') a.runs = Number(v());
    else if (k === '--threads') a.threads = Number(v());
    else if (k === '--only') a.only = v();
    else if (k === '--codec') a.codecs = [v()];
    else if (k === '--out') a.out = path.resolve(v());
    else if (k === '--data-dir') a.dataDir = path.resolve(v());
    else if (k === '--max-load') a.maxLoad = Number(v());
    else if (k === '-h' || k === '--help') usage();
    else usage(`unknown argument ${k}`);
  }
  if (!Number.isInteger(a.rows) || a.rows < 1000) usage('--rows must be an integer >= 1000');
  if (!Number.isInteger(a.runs) || a.runs < 1) usage('--runs must be a positive integer');
  if (!Number.isInteger(a.threads) || a.threads < 1) usage('--threads must be a positive integer');
  if (a.only && !['full', 'selective', 'pageindex', 'evidence', 'types', 'data'].includes(a.only)) usage('--only is full, selective, pageindex, evidence, types or data');
  if (!a.codecs.every((c) => ['snappy', 'zstd'].includes(c))) usage('--codec is snappy or zstd');
  // The library runner is built beside the CLI (bench/micro in the same build folder).
  a.queryBench ??= path.join(path.dirname(path.dirname(a.pqsift)), 'bench', 'micro', 'pqsift_query_bench');
  return a;
}

// ts spans 2026-01-01 .. about 2026-08-20 whatever the row count (one second per row at 20M).
function generatorSql(rows) {
  const stepUs = Math.round((FULL_ROWS * 1e6) / rows);
  const regions = `[${REGIONS.map(sql).join(', ')}]`;
  return `SELECT i::BIGINT AS id,
                 TIMESTAMP '2026-01-01' + to_microseconds(i * ${stepUs}) AS ts,
                 ${regions}[1 + (hash(i) % ${REGIONS.length})::INTEGER] AS region,
                 ((hash(i * 3) % 10000000) / 100.0)::DOUBLE AS price,
                 (hash(i * 7) % 100)::INTEGER AS qty,
                 md5(i::VARCHAR)[1:20] AS note
          FROM range(${rows}) t(i)`;
}

async function fileShape(con, file) {
  const r = (await con.runAndReadAll(
    `SELECT count(DISTINCT row_group_id)::INTEGER AS rgs, sum(DISTINCT row_group_num_rows)::BIGINT AS approx,
            max(row_group_num_rows)::BIGINT AS mx, string_agg(DISTINCT compression, ',') AS codecs
     FROM parquet_metadata(${sql(file)})`)).getRowObjectsJson()[0];
  const n = (await con.runAndReadAll(`SELECT num_rows::BIGINT AS n FROM parquet_file_metadata(${sql(file)})`)).getRowObjectsJson()[0].n;
  const kv = (await con.runAndReadAll(
    `SELECT decode(value) AS v FROM parquet_kv_metadata(${sql(file)}) WHERE decode(key) = 'pqsift_generator'`)).getRowObjectsJson();
  return { rowGroups: r.rgs, maxRowGroup: Number(r.mx), codecs: r.codecs, rows: Number(n), generator: kv[0]?.v };
}

async function ensureFiles(args) {
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await instance.connect();
  const files = {};
  const shapes = {};
  fs.mkdirSync(args.dataDir, { recursive: true });
  for (const codec of args.codecs) {
    const file = path.join(args.dataDir, `scan_${args.rows}_${codec}.parquet`);
    const ok = (s) => s.rows === args.rows && s.generator === GENERATOR_VERSION &&
                      s.codecs === codec.toUpperCase() && s.maxRowGroup <= ROW_GROUP_ROWS + 2048;
    let good = false;
    if (fs.existsSync(file)) { try { good = ok(await fileShape(con, file)); } catch { good = false; } }
    if (!good) {
      process.stderr.write(`scan_vs_peers: writing ${file} ...\n`);
      const tmp = `${file}.tmp`;
      await con.run(`COPY (${generatorSql(args.rows)}) TO ${sql(tmp)} (FORMAT parquet, COMPRESSION ${codec}, ` +
                    `ROW_GROUP_SIZE ${ROW_GROUP_ROWS}, KV_METADATA {pqsift_generator: '${GENERATOR_VERSION}'})`);
      fs.renameSync(tmp, file);
      const s = await fileShape(con, file);
      if (!ok(s)) throw new Error(`DuckDB wrote ${JSON.stringify(s)} for ${file}`);
    }
    files[codec] = file;
    shapes[codec] = await fileShape(con, file);
  }
  const duckVersion = (await con.runAndReadAll('SELECT version() AS v')).getRowObjectsJson()[0].v;
  return { files, shapes, duckVersion };
}

// The evidence section's file: DuckDB writes the rows, pqsift convert cuts them into row groups of
// EVIDENCE_ROW_GROUP rows with a page index and a bloom filter on `key` (DuckDB writes bloom
// filters only for dictionary-encoded columns), sized for a false-positive rate of 1e-4: 4 MiB
// per row group, of which a lookup reads the header and one 32-byte block. (At the default
// 0.01, 2 MiB, the measured rate is 0.1% per row group: one present key in fifty would also
// read a second row group's key column.)
async function ensureEvidenceFile(args) {
  const f = path.join(args.dataDir, `evidence_v2_${args.rows}_snappy.parquet`);
  if (fs.existsSync(f)) return f;
  const source = path.join(args.dataDir, `evidence_${args.rows}_duckdb.parquet`);
  if (!fs.existsSync(source)) {
    const { DuckDBInstance } = await loadDuckDB();
    const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
    const con = await instance.connect();
    const stepUs = Math.round((FULL_ROWS * 1e6) / args.rows);
    process.stderr.write(`scan_vs_peers: writing ${source} ...\n`);
    await con.run(`COPY (SELECT i::BIGINT AS id,
                                TIMESTAMP '2026-01-01' + to_microseconds(i * ${stepUs}) AS ts,
                                md5(i::VARCHAR)[1:16] AS key,
                                CASE hash(i) % 3 WHEN 0 THEN 'aaa' WHEN 1 THEN 'zzz'
                                     ELSE 'm' || lpad(((i // ${EVIDENCE_ROW_GROUP}) * 7 % 20)::VARCHAR, 2, '0') END AS cat,
                                ((hash(i * 3) % 10000000) / 100.0)::DOUBLE AS price
                         FROM range(${args.rows}) t(i))
                   TO ${sql(`${source}.tmp`)} (FORMAT parquet, COMPRESSION snappy)`);
    fs.renameSync(`${source}.tmp`, source);
  }
  process.stderr.write(`scan_vs_peers: writing ${f} (pqsift convert) ...\n`);
  const r = spawnSync(args.pqsift, ['convert', source, `${f}.tmp`, '--row-group-rows', String(EVIDENCE_ROW_GROUP),
                                    '--bloom-filter', `key:${EVIDENCE_ROW_GROUP}:0.0001`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pqsift convert failed: ${r.stderr}`);
  fs.renameSync(`${f}.tmp`, f);
  return f;
}

// One pqsift process (bench/lib/pqsift.mjs): wall, CPU, peak RSS, rows and bytes read.
const runPqsift = (args, file, extra, command = 'scan') => runPqsiftCli(args.pqsift, command, file, extra);

// The same query through the library (bench/micro/query_bench.cc), timed inside its process.
const runLibrary = (args, file, where, threads) => runQueryBench(args.queryBench, file, { threads, where });

function runChild(engine, file, threads, kind, arg, rows) {
  const env = { ...process.env, POLARS_MAX_THREADS: String(threads) };
  const r = spawnSync(process.execPath, [self, '--child', engine, '--file', file, '--threads', String(threads),
                                         '--kind', kind, '--arg', arg ?? '', '--rows', String(rows)],
                      { encoding: 'utf8', env, maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${engine} ${kind} ${arg ?? ''} failed: ${r.stderr.trim().slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

// Warm-up run (discarded), then `runs` measured runs; medians of time, max of peak RSS.
function measure(runs, once) {
  once();
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(once());
  return {
    ms: median(samples.map((s) => s.ms)), samples: samples.map((s) => s.ms),
    cpuMs: median(samples.map((s) => s.cpuMs ?? NaN)),
    peakKb: Math.max(...samples.map((s) => s.peakKb ?? 0)) || null,
    baselineKb: samples[0].baselineKb ?? null,
    bytesRead: samples[0].bytesRead ?? null, rows: samples[0].rows,
  };
}

// The same as measure() for several engines whose difference is the point (pqsift with and
// without pruning): warm-ups, then `runs` rounds alternating between them, so drift in the
// machine (other processes, memory freed by a peer just before) weighs on each alike.
function measureInterleaved(runs, fns) {
  const names = Object.keys(fns);
  for (const n of names) fns[n]();
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) for (const n of names) samples[n].push(fns[n]());
  return Object.fromEntries(names.map((n) => {
    const s = samples[n];
    return [n, { ms: median(s.map((x) => x.ms)), samples: s.map((x) => x.ms), cpuMs: median(s.map((x) => x.cpuMs ?? NaN)),
                 peakKb: Math.max(...s.map((x) => x.peakKb ?? 0)) || null, baselineKb: null,
                 bytesRead: s[0].bytesRead ?? null, rows: s[0].rows }];
  }));
}

// Uncompressed bytes of each leaf column, summed over row groups (pqsift inspect --json).
function uncompressedSizes(args, file) {
  const j = JSON.parse(execFileSync(args.pqsift, ['inspect', '--json', file], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  const sizes = {};
  for (const rg of j.row_groups) for (const c of rg.columns) sizes[c.path] = (sizes[c.path] ?? 0) + c.total_uncompressed_size;
  const types = Object.fromEntries(j.columns.map((c) => [c.path, `${c.physical_type}${c.logical_type ? ` ${c.logical_type}` : ''}`]));
  return { sizes, types };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  requirePeers();
  if (args.only === 'data') { await ensureFiles(args); return; } // write the inputs and stop
  if (!fs.existsSync(args.pqsift)) throw new Error(`no pqsift binary at ${args.pqsift} (build target pqsift_cli, or pass --pqsift)`);
  checkTimeInstalled();
  const { files, shapes, duckVersion } = await ensureFiles(args);
  const hasLibrary = fs.existsSync(args.queryBench);
  await waitForQuietLogged(args.maxLoad, (m) => process.stderr.write(`scan_vs_peers: ${m}\n`));
  const loadBefore = uptime();
  const polarsVersion = JSON.parse(fs.readFileSync(path.join(peers, 'nodejs-polars', 'package.json'), 'utf8')).version;
  const duckApiVersion = JSON.parse(fs.readFileSync(path.join(peers, '@duckdb', 'node-api', 'package.json'), 'utf8')).version;
  const T = args.threads;
  const sections = [];
  const log = (s) => process.stderr.write(`scan_vs_peers: ${s}\n`);
  const notes = [];
  const baselines = {}; // engine -> VmHWM (kB) of a child before its query: Node.js + the library

  const engineRows = (label, file, fns) => {
    const res = {};
    for (const [engine, fn] of Object.entries(fns)) {
      log(`${label} ${path.basename(file)}: ${engine} ...`);
      res[engine] = fn === null ? null : measure(args.runs, fn);
    }
    return res;
  };

  const table = (title, rowsOut) => {
    const lines = [`### ${title}`, '',
      '| codec | query | engine | wall ms (median) | CPU ms (median) | peak RSS MB | bytes read MB | rows | pqsift / fastest peer (wall) | pqsift / cheapest peer (CPU) |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'];
    for (const r of rowsOut) lines.push(`| ${r.codec} | ${r.query} | ${r.engine} | ${fmt(r.ms)} | ${fmt(r.cpuMs)} | ${fmt(r.peakKb ? r.peakKb / 1024 : null)} | ${fmt(mb(r.bytesRead))} | ${r.rows ?? 'n/a'} | ${r.ratio ?? ''} | ${r.cpuRatio ?? ''} |`);
    return lines.join('\n');
  };

  const addResults = (codec, query, res, out) => {
    const peerMs = ['duckdb', 'polars'].map((e) => res[e]?.ms).filter((x) => x != null);
    const best = peerMs.length ? Math.min(...peerMs) : null;
    const peerCpu = ['duckdb', 'polars'].map((e) => res[e]?.cpuMs).filter((x) => Number.isFinite(x));
    const bestCpu = peerCpu.length ? Math.min(...peerCpu) : null;
    const rowSet = new Set(Object.values(res).filter(Boolean).map((r) => r.rows));
    if (rowSet.size > 1) notes.push(`**row counts differ** for ${codec} ${query}: ${JSON.stringify(Object.fromEntries(Object.entries(res).map(([e, r]) => [e, r?.rows])))}`);
    for (const [engine, r] of Object.entries(res)) {
      if (r?.baselineKb) baselines[engine] = Math.max(baselines[engine] ?? 0, r.baselineKb);
      if (!r) { out.push({ codec, query, engine, ms: null, rows: 'not supported', ratio: '' }); continue; }
      out.push({ codec, query, engine, ...r,
                 ratio: (engine === 'pqsift' || engine === 'pqsift (library)') && best ? `**${(r.ms / best).toFixed(2)}**` : '',
                 cpuRatio: (engine === 'pqsift' || engine === 'pqsift (library)') && bestCpu && Number.isFinite(r.cpuMs) ? (r.cpuMs / bestCpu).toFixed(2) : '' });
    }
  };

  if (!args.only || args.only === 'full') {
    const out = [];
    for (const codec of args.codecs) {
      const f = files[codec];
      const res = engineRows('full', f, {
        pqsift: () => runPqsift(args, f, ['--threads', String(T)]),
        duckdb: () => runChild('duckdb', f, T, 'full', '', args.rows),
        polars: () => runChild('polars', f, T, 'full', '', args.rows),
      });
      addResults(codec, 'full scan, all columns', res, out);
    }
    sections.push(table(`Full materialisation (${T} threads)`, out));
  }

  if (!args.only || args.only === 'selective') {
    const out = [];
    for (const codec of args.codecs) {
      const f = files[codec];
      for (const q of selectiveQueries(args.rows)) {
        const pq = () => runPqsift(args, f, ['--threads', String(T), '--where', q.where], q.count ? 'count' : 'scan');
        const res = engineRows(q.name, f, {
          pqsift: pq,
          ...(hasLibrary && !q.count ? { 'pqsift (library)': () => runLibrary(args, f, q.where, T) } : {}),
          duckdb: () => runChild('duckdb', f, T, 'selective', q.name, args.rows),
          polars: () => runChild('polars', f, T, 'selective', q.name, args.rows),
        });
        addResults(codec, q.name, res, out);
      }
    }
    sections.push(table(`Selective queries (${T} threads)`, out));
  }

  if (!args.only || args.only === 'pageindex') {
    // One row group of all the rows with pages of 10,000 rows and a page index, written by
    // pqsift convert from the snappy file (DuckDB writes no page index).
    const out = [];
    const source = files.snappy ?? Object.values(files)[0];
    const f = path.join(args.dataDir, `pageindex_${args.rows}_snappy.parquet`);
    if (!fs.existsSync(f)) {
      log(`writing ${f} (pqsift convert)`);
      const r = spawnSync(args.pqsift, ['convert', source, f, '--row-group-rows', String(args.rows), '--page-rows', '10000'], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`pqsift convert failed: ${r.stderr}`);
    }
    const pq = (where, extra = []) => () => runPqsift(args, f, ['--threads', String(T), '--where', where, ...extra]);
    for (const q of pageIndexQueries(args.rows)) {
      // Pruning that prunes nothing must cost little: pqsift with and without it, interleaved,
      // at least 7 rounds (the difference is a few percent).
      const paired = q.pruneNothing
        ? (log(`${q.name}: pqsift and pqsift --no-prune, interleaved ...`),
           measureInterleaved(Math.max(args.runs, 7), { pqsift: pq(q.where), 'pqsift --no-prune': pq(q.where, ['--no-prune']) }))
        : {};
      const res = { ...paired, ...engineRows(q.name, f, {
        ...(q.pruneNothing ? {} : { pqsift: pq(q.where) }),
        ...(hasLibrary ? { 'pqsift (library)': () => runLibrary(args, f, q.where, T) } : {}),
        duckdb: () => runChild('duckdb', f, T, 'selective', q.name, args.rows),
        polars: () => runChild('polars', f, T, 'selective', q.name, args.rows),
      }) };
      if (q.pruneNothing) {
        const a = paired.pqsift;
        const b = paired['pqsift --no-prune'];
        notes.push(`${q.name}: pqsift / pqsift --no-prune = ${(a.ms / b.ms).toFixed(3)} wall, ` +
                   `${(a.cpuMs / b.cpuMs).toFixed(3)} CPU (medians of ${a.samples.length} interleaved runs)`);
      }
      addResults('snappy', q.name, res, out);
    }
    sections.push(table(`One row group with a page index, pages of 10,000 rows (${T} threads; file: ${path.basename(f)}, ${(fs.statSync(f).size / 1e6).toFixed(0)} MB)`, out));
  }

  if (!args.only || args.only === 'evidence') {
    // Issue 7: bloom filters, dictionaries and top-k on 1M-row row groups (see evidenceQueries).
    const out = [];
    const f = await ensureEvidenceFile(args);
    const extraRows = {};
    for (const q of evidenceQueries(args.rows)) {
      const pqArgs = q.orderBy ? ['--order-by', q.orderBy, '--limit', String(q.limit)] : ['--where', q.where];
      const res = engineRows(q.name, f, {
        pqsift: () => {
          const r = runPqsift(args, f, ['--threads', String(T), ...pqArgs]);
          const j = r.stats;
          extraRows[q.name] = `${j.row_groups_read} of ${j.row_groups_total} row groups read, ${j.pages_read} data pages decoded`;
          return r;
        },
        duckdb: () => runChild('duckdb', f, T, 'selective', q.name, args.rows),
        polars: () => runChild('polars', f, T, 'selective', q.name, args.rows),
      });
      addResults('snappy', q.name, res, out);
    }
    sections.push(table(`Evidence: bloom filters, dictionaries, top-k (${T} threads; file: ${path.basename(f)}, ${(fs.statSync(f).size / 1e6).toFixed(0)} MB, row groups of ${EVIDENCE_ROW_GROUP} rows)`, out) +
      '\n\npqsift reads per query: ' + Object.entries(extraRows).map(([k, v]) => `${k}: ${v}`).join('; ') + '.');
  }

  if (!args.only || args.only === 'types') {
    const lines = [`### Single-thread decode throughput per column`, '',
      'MB/s of uncompressed column data (footer `total_uncompressed_size`, summed over row groups) ' +
      'per second of wall time, one column selected, one thread.', '',
      '| codec | column | type | uncompressed MB | pqsift ms | pqsift MB/s | DuckDB MB/s | Polars MB/s | pqsift / fastest peer (wall) | pqsift MB/s per CPU s | DuckDB | Polars |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'];
    for (const codec of args.codecs) {
      const f = files[codec];
      const { sizes, types } = uncompressedSizes(args, f);
      for (const col of COLUMNS) {
        const res = engineRows(`column ${col}`, f, {
          pqsift: () => runPqsift(args, f, ['--threads', '1', '--select', col]),
          duckdb: () => runChild('duckdb', f, 1, 'column', col, args.rows),
          polars: () => runChild('polars', f, 1, 'column', col, args.rows),
        });
        const rate = (r) => sizes[col] / 1e6 / (r.ms / 1e3);
        const cpuRate = (r) => sizes[col] / 1e6 / (r.cpuMs / 1e3);
        const best = Math.min(res.duckdb.ms, res.polars.ms);
        lines.push(`| ${codec} | ${col} | ${types[col]} | ${fmt(sizes[col] / 1e6)} | ${fmt(res.pqsift.ms)} | ${fmt(rate(res.pqsift))} | ${fmt(rate(res.duckdb))} | ${fmt(rate(res.polars))} | **${(res.pqsift.ms / best).toFixed(2)}** | ${fmt(cpuRate(res.pqsift))} | ${fmt(cpuRate(res.duckdb))} | ${fmt(cpuRate(res.polars))} |`);
      }
    }
    sections.push(lines.join('\n'));
  }

  const loadAfter = uptime();
  const report = [
    '# Scan: pqsift vs DuckDB vs Polars', '',
    `${args.rows} rows in ${Object.values(shapes)[0].rowGroups} row groups (\`ROW_GROUP_SIZE ${ROW_GROUP_ROWS}\`: DuckDB ` +
    `rounds to ${Object.values(shapes)[0].maxRowGroup} rows), written by DuckDB ` +
    `(\`bench/scan_vs_peers.mjs\`, columns ${COLUMNS.join(', ')}). Median of ${args.runs} runs after one warm-up run, ` +
    'each run a fresh process, file in the page cache. Ratio = pqsift wall time / the faster peer\'s (below 1: pqsift faster).', '',
    '| | |', '| --- | --- |',
    `| date | ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} |`,
    `| machine | ${os.cpus().length} cores (${cpuModel()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB |`,
    `| load before | ${loadBefore} |`,
    `| load after | ${loadAfter} |`,
    `| pqsift | git ${gitRevision()} (${path.relative(root, args.pqsift)}) |`,
    `| DuckDB | ${duckVersion} (@duckdb/node-api ${duckApiVersion}) |`,
    `| Polars | nodejs-polars ${polarsVersion} |`,
    `| Node.js | ${process.version} |`,
    `| files | ${Object.values(files).map((f) => `${path.relative(root, f)} (${fmt(fs.statSync(f).size / 1e6)} MB)`).join(', ')} |`,
    '',
    ...sections.flatMap((s) => [s, '']),
    '### How each figure is taken', '',
    '- pqsift: `pqsift scan FILE --format none --stats --threads N [--select C] [--where E]` run by `bench/micro/pqsift_process_timer`; ' +
    'wall time from fork to exit of the whole process (includes exec and footer read; not Node.js\'s spawn); CPU and peak RSS from its rusage; ' +
    'bytes read = its own `bytes read` counter (footers + column chunks fetched).',
    '- DuckDB: a child `node` process, in-memory database, `SET threads=N`; full: `CREATE TABLE t AS SELECT * FROM read_parquet(FILE)`; ' +
    'selective: `CREATE TABLE t AS SELECT * ... WHERE ...` (materialised in DuckDB, not converted to JS values); ' +
    'count: `SELECT count(*) ... WHERE id >= 0` (pqsift: `pqsift count FILE --where ...`); per column: `CREATE TABLE t AS SELECT col ...`. Wall time of the query only.',
    '- Polars: a child `node` process with `POLARS_MAX_THREADS=N`; full: `readParquet(FILE)`; per column: `readParquet(FILE, {columns: [col]})`; ' +
    'selective: `scanParquet(FILE).filter(<typed literals>).collect()`; count: `.select(pl.len())`. Wall time of the call only.',
    '- Peak RSS of DuckDB/Polars = `VmHWM` of the child at its end; it includes Node.js and the loaded library ' +
    `(largest VmHWM before the query: ${Object.entries(baselines).map(([e, kb]) => `${e} ${fmt(kb / 1024)} MB`).join(', ') || 'n/a'}).`,
    '- Bytes read of DuckDB/Polars = growth of `rchar` in the child\'s `/proc/self/io` during the query: bytes returned by ' +
    'read()/pread() system calls, page-cache hits included. Reads through mmap are not counted (Polars maps local files, ' +
    'so its figure is near 0 and means nothing).',
    ...(notes.length ? ['', '### Notes', '', ...notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
  process.stdout.write(report);
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, report);
}

if (process.argv[2] === '--child') {
  child(process.argv.slice(2)).catch((e) => { process.stderr.write(`${e.stack ?? e}\n`); process.exit(1); });
} else {
  main().catch((e) => { process.stderr.write(`scan_vs_peers: ${e.stack ?? e}\n`); process.exit(1); });
}

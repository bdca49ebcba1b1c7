#!/usr/bin/env node
// The benchmark suite (issue 9): one query suite through pqsift (CLI and library), DuckDB and
// Polars on the same files, interleaved, with row counts checked across engines. Driven by
// bench/run; see bench/README.md for what is measured and how.
//
//   bench/run [--quick] [--rows N] [--reps K] [--threads N] [--files a,b] [--queries REGEX]
//             [--micro | --micro-only | --codec | --codec-only | --data-only] [--out FILE] [--data-dir DIR]
//             [--pqsift PATH] [--max-load L]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  benchDir, fmt, gitRevision, isoNow, loadDuckDB, machine, median, peerVersion, requirePeers, root, uptime, waitForQuiet,
} from './lib/common.mjs';
import { CATEGORIES, COLUMNS, FILE_NAMES, FIRST_TS, FULL_ROWS, TYPES, ensureDatasets, keyOf, tsStepUs } from './lib/datasets.mjs';
import { codecSection, pageCounts, runCodecComparison } from './lib/codec.mjs';
import { filterColumns, toSql } from './lib/filter.mjs';
import { startPeer } from './lib/peers.mjs';
import { checkTimeInstalled, runFooterBench, runLibrary, runPqsift, runPqsiftExplain } from './lib/pqsift.mjs';
import { ensureWideFile } from './lib/wide.mjs';
import { runMicro } from './lib/micro.mjs';

const QUICK_ROWS = 2_000_000;
const log = (s) => process.stderr.write(`bench: ${s}\n`);

// 'YYYY-MM-DD HH:MM:SS' of the row `id` (ts = FIRST_TS + id * step).
function tsOf(rows, id) {
  const d = new Date(Date.parse(`${FIRST_TS}T00:00:00Z`) + (id * tsStepUs(rows)) / 1000);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

// The queries on the 20M-row files; literals scale with the row count so that each selects the
// same fraction of a smaller file. `short` labels the plot.
function queries(rows) {
  const p = Math.floor(rows * 0.6172839);  // a row in the middle of some row group
  const q = Math.floor(rows * 0.2345678);
  const day = ['between', 'ts', '2026-03-01 00:00:00', '2026-03-01 23:59:59'];
  return [
    { short: 'point id', name: `point lookup: id = ${p}`, filter: ['=', 'id', p] },
    { short: 'id range', name: `narrow range: id BETWEEN ${p} AND ${p + 999}`, filter: ['between', 'id', p, p + 999] },
    { short: 'ts range', name: 'time range: one day of ts (0.43 %)', filter: day },
    { short: 'category =', name: `category = '${CATEGORIES[2]}' (1 of ${CATEGORIES.length})`, filter: ['=', 'category', CATEGORIES[2]] },
    { short: 'key absent', name: 'key = absent value', filter: ['=', 'key', '0123456789abcdef'] },
    { short: 'key present', name: `key = present value (row ${q})`, filter: ['=', 'key', keyOf(q)] },
    { short: 'id OR ts', name: 'multi-column OR: id range OR ts range',
      filter: ['or', ['between', 'id', q, q + 999], ['between', 'ts', tsOf(rows, p), tsOf(rows, p + 999)]] },
    { short: 'qty > 95', name: 'qty > 95 (unsorted, prunes nothing)', filter: ['>', 'qty', 95] },
    { short: 'full scan', name: 'full materialisation, all columns' },
    { short: 'one column', name: 'full pass of one column (price)', columns: ['price'] },
    { short: 'top-10 ts', name: 'top-10 by ts (ORDER BY ts DESC LIMIT 10)', orderBy: { column: 'ts', desc: true }, limit: 10 },
    { short: 'LIMIT 10', name: 'LIMIT 10', limit: 10 },
    { short: 'filter LIMIT 10', name: 'qty > 95 LIMIT 10', filter: ['>', 'qty', 95], limit: 10 },
  ];
}
const FOOTER_QUERY = { short: 'footer (wide)', name: 'footer only (pqsift explain), 500 columns x 50 row groups', footerOnly: true };

// The four engines of one query, run in this order in every round.
function engines(args, peers, file, q) {
  const where = q.filter ? toSql(q.filter, TYPES) : '';
  const orderBy = q.orderBy ? `${q.orderBy.column} ${q.orderBy.desc ? 'DESC' : 'ASC'}` : '';
  const T = String(args.threads);
  const cliArgs = ['--threads', T];
  if (where) cliArgs.push('--where', where);
  if (q.columns) cliArgs.push('--select', q.columns.join(','));
  if (orderBy) cliArgs.push('--order-by', orderBy);
  if (q.limit != null) cliArgs.push('--limit', String(q.limit));
  const peerQuery = { file, columns: q.columns ?? null, filter: q.filter ?? null, types: TYPES, orderBy: q.orderBy ?? null,
                      limit: q.limit ?? null, footerOnly: !!q.footerOnly };
  return {
    'pqsift CLI': async () => (q.footerOnly ? runPqsiftExplain(args.pqsift, file) : runPqsift(args.pqsift, 'scan', file, cliArgs)),
    'pqsift lib': async () => (q.footerOnly ? runFooterBench(args.footerBench, file)
      : runLibrary(args.queryBench, file, { threads: args.threads, where, columns: q.columns ?? [], limit: q.limit ?? -1, orderBy })),
    DuckDB: () => peers.duckdb.run(peerQuery),
    Polars: () => peers.polars.run(peerQuery),
  };
}

// One warm-up round (discarded), then `reps` rounds, each running every engine once in turn.
async function measure(args, runners) {
  const samples = Object.fromEntries(Object.keys(runners).map((e) => [e, []]));
  for (let round = 0; round <= args.reps; round++) {
    for (const [engine, run] of Object.entries(runners)) {
      const r = await run();
      if (round > 0) samples[engine].push(r);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([engine, s]) => [engine, {
    ms: median(s.map((x) => x.ms)), cpuMs: median(s.map((x) => x.cpuMs ?? NaN)), samples: s.map((x) => x.ms),
    rows: [...new Set(s.map((x) => x.rows))], bytesRead: s[0].bytesRead,
    // pqsift CLI only: the largest peak RSS over the rounds, and the pages it decompressed
    // (--stats-json; the same in every round).
    peakKb: s.some((x) => x.peakKb != null) ? Math.max(...s.map((x) => x.peakKb ?? 0)) : null,
    pagesDecompressed: s[0].stats?.pages_decompressed ?? null,
  }]));
}

function usage(msg) {
  if (msg) process.stderr.write(`bench: ${msg}\n`);
  process.stderr.write(`usage: bench/run [--quick] [--rows N] [--reps K] [--threads N] [--files ${[...FILE_NAMES, 'wide'].join(',')}] ` +
                       '[--queries REGEX] [--micro | --micro-only | --codec | --codec-only | --data-only] [--out FILE] [--data-dir DIR] ' +
                       '[--pqsift PATH] [--max-load L]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const a = { quick: false, rows: null, reps: null, threads: os.cpus().length, files: null, queries: null, micro: false,
              microOnly: false, codec: false, codecOnly: false, dataOnly: false, out: null, dataDir: path.join(benchDir, 'data'), pqsift: path.join(root, 'build', 'src', 'pqsift'),
              maxLoad: Infinity };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => { if (i + 1 >= argv.length) usage(`${k} needs a value`); return argv[++i]; };
    if (k === '--quick') a.quick = true;
    else if (k === '--rows') a.rows = Number(v());
    else if (k === '--reps') a.reps = Number(v());
    else if (k === '--threads') a.threads = Number(v());
    else if (k === '--files') a.files = v().split(',');
    else if (k === '--queries') a.queries = new RegExp(v(), 'i');
    else if (k === '--micro') a.micro = true;
    else if (k === '--micro-only') a.micro = a.microOnly = true;
    else if (k === '--codec') a.codec = true;
    else if (k === '--codec-only') a.codec = a.codecOnly = true;
    else if (k === '--data-only') a.dataOnly = true;
    else if (k === '--out') a.out = path.resolve(v());
    else if (k === '--data-dir') a.dataDir = path.resolve(v());
    else if (k === '--pqsift') a.pqsift = path.resolve(v());
    else if (k === '--max-load') a.maxLoad = Number(v());
    else if (k === '-h' || k === '--help') usage();
    else usage(`unknown argument ${k}`);
  }
  a.rows ??= a.quick ? QUICK_ROWS : FULL_ROWS;
  a.reps ??= a.quick ? 3 : 4;
  if (!Number.isInteger(a.rows) || a.rows < 10000) usage('--rows must be an integer >= 10000');
  if (!Number.isInteger(a.reps) || a.reps < 1) usage('--reps must be a positive integer');
  if (!Number.isInteger(a.threads) || a.threads < 1) usage('--threads must be a positive integer');
  const known = [...FILE_NAMES, 'wide'];
  if (a.files && !a.files.every((f) => known.includes(f))) usage(`--files takes ${known.join(', ')}`);
  const base = a.codecOnly ? 'codec' : 'suite';
  a.out ??= path.join(benchDir, 'results', a.rows === FULL_ROWS ? `${base}.md` : a.rows === QUICK_ROWS ? `${base}-quick.md` : `${base}-${a.rows}.md`);
  // The library drivers are built beside the CLI (bench/micro in the same build folder).
  const micro = path.join(path.dirname(path.dirname(a.pqsift)), 'bench', 'micro');
  a.queryBench = path.join(micro, 'pqsift_query_bench');
  a.footerBench = path.join(micro, 'pqsift_footer_bench');
  a.codecBench = path.join(micro, 'pqsift_codec_bench');
  a.microDir = micro;
  return a;
}

const ratio = (a, b) => (a != null && b != null && b > 0 ? a / b : null);
const ratioText = (x) => (x == null ? 'n/a' : x < 1 ? `**${x.toFixed(2)}**` : x.toFixed(2));

async function main() {
  const started = Date.now();
  const args = parseArgs(process.argv.slice(2));
  const microOut = path.join(path.dirname(args.out), 'micro.md');
  if (args.microOnly) { runMicro(args, microOut, log); return; }
  requirePeers();
  checkTimeInstalled();
  for (const b of [args.pqsift, args.queryBench, args.footerBench, args.codecBench]) {
    if (!fs.existsSync(b)) {
      throw new Error(`no ${b}: build the targets pqsift_cli pqsift_query_bench pqsift_footer_bench pqsift_codec_bench (see bench/README.md)`);
    }
  }

  const tGen = Date.now();
  const wanted = args.files ? FILE_NAMES.filter((n) => args.files.includes(n)) : FILE_NAMES;
  const { dirs, files } = await ensureDatasets({ dataDir: args.dataDir, rows: args.rows, pqsift: args.pqsift, threads: args.threads, log,
                                                 names: wanted });
  const { DuckDBInstance } = await loadDuckDB();
  const wideFile = await ensureWideFile(await (await DuckDBInstance.create(':memory:')).connect(), args.dataDir);
  const genSeconds = (Date.now() - tGen) / 1e3;
  if (args.dataOnly) {
    log(`datasets ready in ${dirs.map((d) => path.relative(process.cwd(), d)).join(', ')} (${genSeconds.toFixed(0)} s)`);
    return;
  }
  const suiteFiles = Object.fromEntries(Object.entries(files).filter(([name]) => wanted.includes(name)));
  if (args.codecOnly) {
    await waitForQuiet(args.maxLoad, log);
    const loadBefore = uptime();
    const codec = runCodecComparison(args, suiteFiles, log);
    const report = [`# Codec alone vs pqsift scan (${args.rows.toLocaleString('en-US')} rows)`, '',
      '| | |', '| --- | --- |', `| date | ${isoNow()} |`, `| machine | ${machine()} |`, `| load before | ${loadBefore} |`,
      `| load after | ${uptime()} |`, `| pqsift | git ${gitRevision()} (${path.relative(root, args.pqsift)}) |`,
      `| run | \`bench/run ${process.argv.slice(2).join(' ')}\`: ${((Date.now() - started) / 1e3).toFixed(0)} s, ` +
      `of which ${genSeconds.toFixed(0)} s writing or checking datasets |`, '',
      ...codecSection(args, codec)].join('\n');
    fs.mkdirSync(path.dirname(args.out), { recursive: true });
    fs.writeFileSync(args.out, report);
    process.stdout.write(report);
    log(`report: ${path.relative(process.cwd(), args.out)}`);
    return;
  }

  await waitForQuiet(args.maxLoad, log);
  const loadBefore = uptime();
  const peers = { duckdb: await startPeer('duckdb', args.threads), polars: await startPeer('polars', args.threads) };
  const cases = [];
  for (const [name, f] of Object.entries(suiteFiles)) {
    // Pages per column (headers only), for "pages decompressed": of the pages of the columns a
    // query reads, how many it decompressed.
    const pages = pageCounts(args.codecBench, f.path);
    for (const q of queries(args.rows)) cases.push({ fileName: name, file: f.path, bytes: f.bytes, q, pages });
  }
  if (!args.files || args.files.includes('wide')) cases.push({ fileName: 'wide', file: wideFile, bytes: fs.statSync(wideFile).size, q: FOOTER_QUERY });
  const selected = cases.filter((c) => !args.queries || args.queries.test(c.q.name) || args.queries.test(c.q.short));
  if (!selected.length) throw new Error('no query matches --files and --queries');

  const results = [];
  const disagreements = [];
  try {
    for (const [i, c] of selected.entries()) {
      log(`[${i + 1}/${selected.length}] ${c.fileName}: ${c.q.name}`);
      const res = await measure(args, engines(args, peers, c.file, c.q));
      const counts = Object.fromEntries(Object.entries(res).map(([e, r]) => [e, r.rows.join('/')]));
      const all = new Set(Object.values(res).flatMap((r) => r.rows));
      if (all.size !== 1) {
        disagreements.push(`${c.fileName}: ${c.q.name}: rows ${JSON.stringify(counts)}`);
        log(`ROW COUNTS DISAGREE: ${JSON.stringify(counts)}`);
      }
      results.push({ ...c, res, rows: all.size === 1 ? [...all][0] : Object.entries(counts).map(([e, n]) => `${e} ${n}`).join(', ') });
    }
  } finally {
    for (const p of Object.values(peers)) p.close();
  }
  // The codec-alone comparison (--codec), after the suite, on the same files.
  const codec = args.codec ? runCodecComparison(args, suiteFiles, log) : null;
  const loadAfter = uptime();
  const suiteSeconds = (Date.now() - started) / 1e3;

  const plot = args.out.replace(/\.md$/, '.png');
  const plotted = writePlot(results, plot);
  const report = renderReport({ args, dirs, files, wideFile, results, disagreements, loadBefore, loadAfter, genSeconds, suiteSeconds,
                                versions: { duckdb: peers.duckdb.version }, plot: plotted ? plot : null, codec });
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, report);
  process.stdout.write(report);
  log(`report: ${path.relative(process.cwd(), args.out)}${plotted ? `, plot: ${path.relative(process.cwd(), plot)}` : ' (no plot: gnuplot missing)'}`);
  if (args.micro) runMicro(args, microOut, log);
  log(`total ${((Date.now() - started) / 1e3).toFixed(0)} s (datasets ${genSeconds.toFixed(0)} s)`);
  if (disagreements.length) {
    log(`FAILED: the engines returned different row counts:\n  ${disagreements.join('\n  ')}`);
    process.exit(1);
  }
}

// "N / M" pages: N decompressed by the query (pqsift CLI's --stats-json), M in the file's chunks
// of the columns the query reads (its output columns and its filter's), dictionary pages
// included. N > M would mean some page was decompressed twice: flagged in bold.
function pagesText(r) {
  const n = r.res['pqsift CLI']?.pagesDecompressed;
  if (n == null || !r.pages) return 'n/a';
  const cols = new Set([...(r.q.columns ?? COLUMNS), ...(r.q.filter ? filterColumns(r.q.filter) : []),
                        ...(r.q.orderBy ? [r.q.orderBy.column] : [])]);
  const m = [...cols].reduce((sum, c) => sum + (r.pages.columns[c]?.pages ?? 0), 0);
  return n > m ? `**${n} / ${m} (more than the file holds)**` : `${n} / ${m}`;
}

function renderReport({ args, dirs, files, wideFile, results, disagreements, loadBefore, loadAfter, genSeconds, suiteSeconds, versions, plot,
                        codec }) {
  const rel = (p) => path.relative(root, p);
  const fileRows = Object.entries(files).map(([name, f]) =>
    `| ${name} | ${f.writer}: ${f.how} | ${fmt(f.bytes / 1e6)} MB | ${f.seconds > 0.5 ? `written in ${f.seconds.toFixed(0)} s` : 'cached'} |`);
  const lines = [
    `# Benchmark suite: pqsift vs DuckDB vs Polars (${args.rows.toLocaleString('en-US')} rows)`, '',
    ...(disagreements.length ? ['**FAILED: row counts differ** (see the end of this report).', ''] : []),
    `Median wall time of ${args.reps} interleaved rounds (pqsift CLI, pqsift lib, DuckDB, Polars, in turn) after one warm-up round, ` +
    `files in the page cache, **${args.threads} threads for every engine**. Ratio = pqsift / peer: below 1 (bold) pqsift is faster. ` +
    '"pqsift lib" and the peers are timed around the query only, inside a process that is already up; ' +
    '"pqsift CLI" is a whole `pqsift scan` process (exec, footer, plan, decode, exit). Bytes read: pqsift\'s own counter, ' +
    'as a share of the file. How to read it: [bench/README.md](../README.md).', '',
    ...(plot ? [`![pqsift lib / peer, per query (log scale)](${path.basename(plot)})`, ''] : []),
    '| | |', '| --- | --- |',
    `| date | ${isoNow()} |`,
    `| machine | ${machine()} |`,
    `| threads | ${args.threads} (pqsift \`--threads\`, DuckDB \`SET threads\`, Polars \`POLARS_MAX_THREADS\`) |`,
    `| load before | ${loadBefore} |`,
    `| load after | ${loadAfter} |`,
    `| pqsift | git ${gitRevision()} (${rel(args.pqsift)}) |`,
    `| DuckDB | ${versions.duckdb} (@duckdb/node-api ${peerVersion('@duckdb/node-api')}) |`,
    `| Polars | nodejs-polars ${peerVersion('nodejs-polars')} |`,
    `| Node.js | ${process.version} |`,
    `| run | \`bench/run ${process.argv.slice(2).join(' ')}\`: ${suiteSeconds.toFixed(0)} s, of which ${genSeconds.toFixed(0)} s writing or checking datasets |`,
    '',
    `Files (${dirs.map((d) => `\`${rel(d)}/\``).join(', ')}; columns ${COLUMNS.join(', ')}):`, '',
    '| file | written by | size | this run |', '| --- | --- | ---: | --- |',
    ...fileRows,
    `| wide | DuckDB: 500 columns x 50 row groups (bench/lib/wide.mjs) | ${fmt(fs.statSync(wideFile).size / 1e6)} MB | |`,
    '',
    'pqsift peak RSS: the CLI process\'s largest peak resident set over the rounds. Pages decompressed: by the pqsift CLI ' +
    '(`--stats-json` `pages_decompressed`, dictionary pages included) / the pages of the columns the query reads in the file ' +
    '(output and filter columns, every row group, from the page headers): never above the second figure when no page is ' +
    'decompressed twice (bold otherwise); uncompressed pages count as decompressed.', '',
    '| file | query | pqsift CLI ms | pqsift lib ms | DuckDB ms | Polars ms | lib / DuckDB | lib / Polars | CLI / DuckDB | CLI / Polars | rows | ' +
    'pqsift bytes read | pqsift peak RSS | pages decompressed |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const e = r.res;
    const ms = (k) => e[k]?.ms;
    const read = e['pqsift CLI'].bytesRead;
    lines.push(`| ${r.fileName} | ${r.q.name} | ${fmt(ms('pqsift CLI'))} | ${fmt(ms('pqsift lib'))} | ${fmt(ms('DuckDB'))} | ${fmt(ms('Polars'))} | ` +
               `${ratioText(ratio(ms('pqsift lib'), ms('DuckDB')))} | ${ratioText(ratio(ms('pqsift lib'), ms('Polars')))} | ` +
               `${ratioText(ratio(ms('pqsift CLI'), ms('DuckDB')))} | ${ratioText(ratio(ms('pqsift CLI'), ms('Polars')))} | ${r.rows} | ` +
               `${read == null ? 'n/a' : `${fmt(read / 1e6)} MB (${fmt((100 * read) / r.bytes)} %)`} | ` +
               `${e['pqsift CLI'].peakKb == null ? 'n/a' : `${fmt(e['pqsift CLI'].peakKb / 1024)} MB`} | ${pagesText(r)} |`);
  }
  lines.push('', '<details><summary>CPU time (ms, median; user + system, all threads) and every wall-time sample</summary>', '',
             '| file | query | engine | CPU ms | wall ms samples |', '| --- | --- | --- | ---: | --- |');
  for (const r of results) {
    for (const [engine, x] of Object.entries(r.res)) lines.push(`| ${r.fileName} | ${r.q.short} | ${engine} | ${fmt(x.cpuMs)} | ${x.samples.map(fmt).join(', ')} |`);
  }
  lines.push('', '</details>', '');
  if (codec) lines.push(...codecSection(args, codec));
  if (disagreements.length) lines.push('### Row counts differ', '', ...disagreements.map((d) => `- ${d}`), '');
  return lines.join('\n');
}

// A PNG of pqsift lib / DuckDB and pqsift lib / Polars per query (log scale, bars from 1), one
// panel per file, with gnuplot; false when gnuplot is not installed.
function writePlot(results, png) {
  if (spawnSync('gnuplot', ['--version']).status !== 0) return false;
  const byFile = new Map();
  for (const r of results) {
    if (!byFile.has(r.fileName)) byFile.set(r.fileName, []);
    byFile.get(r.fileName).push(r);
  }
  const blocks = [];
  const panels = [];
  let all = [];
  for (const [fileName, rs] of byFile) {
    const rowsOut = rs.map((r, i) => {
      const lib = r.res['pqsift lib'].ms;
      const d = ratio(lib, r.res.DuckDB.ms) ?? 1;
      const p = ratio(lib, r.res.Polars.ms) ?? 1;
      all.push(d, p);
      return `${i} "${r.q.short}" ${d} ${p}`;
    });
    blocks.push(`$${fileName} << EOD\n${rowsOut.join('\n')}\nEOD`);
    panels.push(`set title "file: ${fileName}"\nset xrange [-0.6:${Math.max(rs.length, 4) - 0.4}]\n` +
                `plot $${fileName} using ($1-0.18):(1):($1-0.34):($1-0.02):(1):3:xtic(2) with boxxyerror fs solid 0.8 lc rgb "#d95f02" title "pqsift lib / DuckDB", ` +
                `'' using ($1+0.18):(1):($1+0.02):($1+0.34):(1):4 with boxxyerror fs solid 0.8 lc rgb "#1b9e77" title "pqsift lib / Polars", ` +
                '1 with lines lc rgb "black" notitle');
  }
  all = all.filter((x) => x > 0);
  const lo = Math.min(0.1, ...all) / 1.5;
  const hi = Math.max(10, ...all) * 1.5;
  const cols = panels.length > 1 ? 2 : 1;
  const rowsOfPanels = Math.ceil(panels.length / cols);
  const script = [
    `set terminal pngcairo noenhanced size ${cols * 900},${rowsOfPanels * 420} font "sans,10"`,
    `set output "${png}"`,
    ...blocks,
    `set multiplot layout ${rowsOfPanels},${cols} title "pqsift / peer, median wall time per query (below 1: pqsift faster)"`,
    'set logscale y', `set yrange [${lo}:${hi}]`, 'set ylabel "ratio (log scale)"', 'set grid ytics',
    'set xtics rotate by -35 left', 'set key top left', 'set bmargin 6',
    ...panels, 'unset multiplot',
  ].join('\n');
  const r = spawnSync('gnuplot', [], { input: script, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gnuplot failed: ${r.stderr}`);
  return true;
}

main().catch((e) => { process.stderr.write(`bench: ${e.stack ?? e}\n`); process.exit(1); });

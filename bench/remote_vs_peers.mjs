#!/usr/bin/env node
// Remote benchmark (issue 20): pqsift over HTTP and S3, side by side with the peers that read
// over HTTP here (hyparquet, nodejs-polars; DuckDB's httpfs extension cannot be installed on
// this machine: no network besides Debian and npm), at 0, 20 and 50 ms added per request.
//
//   node bench/remote_vs_peers.mjs [--pqsift PATH] [--data-dir DIR] [--rows N] [--runs K]
//        [--threads N] [--delays 0,20,50] [--only selective,full,dataset] [--out FILE]
//
// Servers on loopback, started here: nginx (Debian) serving the data folder, s3rver (npm peers)
// for the S3 API, and tests/remote/fault_proxy.py in front of each (for full scans it is the
// server itself, see that section), which adds the delay to
// every request (this kernel has no netem) and counts what it saw: requests, bytes, and round
// trips (busy periods: a request arriving while none is in flight starts one), the same
// measure for every engine. Every run is a fresh process (cold: no cache survives).
//
//   selective  `id BETWEEN 12345678 AND 12345778` (scaled to --rows) on the suite's one-row-group
//              pqsift file (page index), over HTTP: pqsift, hyparquet (parquetQuery with a filter),
//              Polars (scanParquet(url).filter().collect()).
//   full       a full scan (every column, output discarded) of the same file, local and over HTTP.
//   dataset    the datasets bench's 2,000-file hive dataset (bench/data/dataset-v1, written by
//              bench/dataset_vs_peers.mjs) uploaded to s3rver: a one-day predicate (files listed,
//              opened), and with a manifest a 1% id range (waves do not grow with files).
//
// Request, round-trip and byte counts are exact; times on a loaded machine are noise (the
// report says the load). Writes Markdown to stdout and --out (default bench/results/remote.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureDatasets } from './lib/datasets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const peers = path.join(root, 'tools', 'peers', 'node_modules');
const self = fileURLToPath(import.meta.url);
const FULL_ROWS = 20_000_000;

// --- child mode: one peer query in a fresh process, printing {rows, ms} ----------------------
if (process.argv[2] === '--child') {
  const [, , , engine, url, lo, hi] = process.argv;
  const t0 = performance.now();
  let rows = 0;
  if (engine === 'hyparquet') {
    const hp = await import(pathToFileURL(path.join(peers, 'hyparquet', 'src', 'index.js')));
    const file = await hp.asyncBufferFromUrl({ url });
    const out = await hp.parquetQuery({ file, filter: { id: { $gte: BigInt(lo), $lte: BigInt(hi) } } });
    rows = out.length;
  } else if (engine === 'polars') {
    const pl = (await import(pathToFileURL(path.join(peers, 'nodejs-polars', 'bin', 'index.js')))).default;
    const df = await pl.scanParquet(url)
      .filter(pl.col('id').gtEq(pl.lit(Number(lo))).and(pl.col('id').ltEq(pl.lit(Number(hi)))))
      .collect();
    rows = df.height;
  }
  console.log(JSON.stringify({ rows, ms: performance.now() - t0 }));
  process.exit(0);
}

const args = {
  pqsift: path.join(root, 'build', 'src', 'pqsift'), dataDir: path.join(root, 'bench', 'data'),
  rows: FULL_ROWS, runs: 3, threads: 2, delays: [0, 20, 50], only: ['selective', 'full', 'dataset'],
  out: path.join(root, 'bench', 'results', 'remote.md'),
};
for (let i = 2; i < process.argv.length; i++) {
  const x = process.argv[i];
  const next = () => process.argv[++i];
  if (x === '--pqsift') args.pqsift = path.resolve(next());
  else if (x === '--data-dir') args.dataDir = path.resolve(next());
  else if (x === '--rows') args.rows = Number(next());
  else if (x === '--runs') args.runs = Number(next());
  else if (x === '--threads') args.threads = Number(next());
  else if (x === '--delays') args.delays = next().split(',').map(Number);
  else if (x === '--only') args.only = next().split(',');
  else if (x === '--out') args.out = path.resolve(next());
  else { console.error(`unknown argument ${x}`); process.exit(2); }
}
const log = (s) => process.stderr.write(`${s}\n`);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pqsift-remote-bench-'));
const children = [];
process.on('exit', () => { for (const c of children) c.kill('SIGTERM'); fs.rmSync(work, { recursive: true, force: true }); });
process.on('SIGINT', () => process.exit(130));

function freePort() {
  const r = spawnSync('/usr/bin/python3', ['-c', 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'], { encoding: 'utf8' });
  return Number(r.stdout.trim());
}

async function waitPort(port) {
  for (let i = 0; i < 200; i++) {
    try { await fetch(`http://127.0.0.1:${port}/`); return; } catch { await new Promise((r) => setTimeout(r, 50)); }
  }
  throw new Error(`nothing listens on ${port}`);
}

async function startNginx(docRoot) {
  const prefix = path.join(work, 'nginx');
  fs.mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const port = freePort();
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(conf, `${process.getuid() === 0 ? 'user root;\n' : ''}worker_processes 2;
daemon off; pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; keepalive_requests 100000;
  client_body_temp_path ${prefix}/b; proxy_temp_path ${prefix}/p; fastcgi_temp_path ${prefix}/f;
  uwsgi_temp_path ${prefix}/u; scgi_temp_path ${prefix}/s;
  server { listen 127.0.0.1:${port}; root ${docRoot}; } }
`);
  children.push(spawn('nginx', ['-p', prefix, '-c', conf], { stdio: 'ignore' }));
  await waitPort(port);
  return port;
}

async function startProxy(upstreamPort, delayMs, extra = []) {
  const where = upstreamPort === null ? [] : ['--upstream', `127.0.0.1:${upstreamPort}`];
  const p = spawn('/usr/bin/python3', [path.join(root, 'tests', 'remote', 'fault_proxy.py'),
    ...where, '--delay-ms', String(delayMs), ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(p);
  const line = await new Promise((resolve) => readline.createInterface({ input: p.stdout }).once('line', resolve));
  return Number(line.split(' ')[1]);
}

const proxyCall = async (port, what) => (await fetch(`http://127.0.0.1:${port}/__proxy/${what}`)).json();

function runPqsift(argv, env = {}, threads = args.threads) {
  const statsPath = path.join(work, 'stats.json');
  fs.rmSync(statsPath, { force: true });
  // Under /usr/bin/time: the process's CPU seconds (user + system), next to its wall time.
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', path.join(work, 'cpu.txt'), args.pqsift, ...argv,
    '--threads', String(threads), '--stats-json', statsPath],
  { encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, ...env } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`pqsift ${argv.join(' ')}: ${r.stderr}`);
  const [user, system] = fs.readFileSync(path.join(work, 'cpu.txt'), 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { ms, out: r.stdout, cpu: user + system, stats: JSON.parse(fs.readFileSync(statsPath, 'utf8')) };
}

function runPeer(engine, url, lo, hi) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [self, '--child', engine, url, String(lo), String(hi)],
    { encoding: 'utf8', env: { ...process.env, POLARS_MAX_THREADS: String(args.threads) }, timeout: 600_000 });
  const ms = performance.now() - t0;
  if (r.status !== 0) {
    const lines = (r.stderr || 'failed').trim().split('\n');
    const why = lines.find((l) => /Error|error/.test(l)) ?? lines.slice(-1)[0];
    return { error: why.trim().slice(0, 160), ms };
  }
  return { ...JSON.parse(r.stdout.trim().split('\n').pop()), ms };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const mib = (b) => (b / 1048576).toFixed(b < 1048576 ? 3 : 1);
const loadNow = () => os.loadavg()[0].toFixed(1);

// Measures one engine `runs` times through the proxy: counts from the proxy (exact), times as
// medians of whole-process wall time.
async function measure(proxyPort, runs, once) {
  const times = [];
  let counts = null, rows = null, error = null, stats = null;
  for (let k = 0; k < runs; k++) {
    await proxyCall(proxyPort, 'reset');
    const r = once();
    if (r.error) { error = r.error; break; }
    times.push(r.ms);
    counts = await proxyCall(proxyPort, 'stats');
    rows = r.rows;
    stats = r.stats ?? stats;
  }
  return { ms: times.length ? median(times) : null, counts, rows, error, stats };
}

const lines = [];
const out = (s = '') => { lines.push(s); console.log(s); };

out('# pqsift over HTTP and S3 (issue 20)');
out();
out(`Machine: ${os.cpus().length} cores, load ${loadNow()} at the start; ${args.runs} runs each, medians; ` +
    `${args.threads} threads. Requests, round trips and bytes are exact (counted by the proxy between ` +
    'engine and server: a round trip is a busy period, a request arriving while none is in flight). ' +
    'Times are whole-process wall times of fresh (cold) processes; on a loaded machine they are noise.');
out('DuckDB: its httpfs extension is downloaded at run time, which this machine cannot do (no network ' +
    'besides Debian and npm), so DuckDB is not measured over HTTP.');
out();

const rowsLo = Math.floor((12345678 * args.rows) / FULL_ROWS);
const rowsHi = rowsLo + 100;
let file = null;
if (args.only.includes('selective') || args.only.includes('full')) {
  const { files } = await ensureDatasets({ dataDir: args.dataDir, rows: args.rows, pqsift: args.pqsift,
    threads: args.threads, log, names: ['pqsift_1rg'] });
  file = files.pqsift_1rg;
}

if (file) {
  const nginxPort = await startNginx(path.dirname(file.path));
  const name = path.basename(file.path);
  out(`File: ${path.relative(root, file.path)} (${mib(file.bytes)} MiB, ${args.rows} rows, one row group, page index).`);
  out();
  if (args.only.includes('selective')) {
    out(`## id BETWEEN ${rowsLo} AND ${rowsHi}, cold, over HTTP`);
    out();
    out('| delay | engine | rows | requests | round trips | bytes | % of file | time (ms) | vs best peer |');
    out('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const delay of args.delays) {
      const proxyPort = await startProxy(nginxPort, delay);
      const url = `http://127.0.0.1:${proxyPort}/${name}`;
      const results = {
        pqsift: await measure(proxyPort, args.runs, () => {
          const r = runPqsift(['scan', url, '--where', `id BETWEEN ${rowsLo} AND ${rowsHi}`, '--format', 'csv']);
          return { ms: r.ms, rows: r.out.trim().split('\n').length - 1, stats: r.stats };
        }),
        hyparquet: await measure(proxyPort, Math.min(args.runs, 2), () => runPeer('hyparquet', url, rowsLo, rowsHi)),
        polars: await measure(proxyPort, Math.min(args.runs, 2), () => runPeer('polars', url, rowsLo, rowsHi)),
      };
      const peerTimes = ['hyparquet', 'polars'].map((e) => results[e].ms).filter((x) => x != null);
      const best = peerTimes.length ? Math.min(...peerTimes) : null;
      for (const [engine, r] of Object.entries(results)) {
        if (r.error) { out(`| ${delay} ms | ${engine} | error: ${r.error} | | | | | | |`); continue; }
        const c = r.counts;
        const ratio = engine === 'pqsift' && best ? `${(best / r.ms).toFixed(1)}x faster` : '';
        out(`| ${delay} ms | ${engine} | ${r.rows} | ${c.requests} | ${c.round_trips} | ${c.bytes} | ` +
            `${(100 * c.bytes / file.bytes).toFixed(3)}% | ${r.ms.toFixed(0)} | ${ratio} |`);
      }
      const s = results.pqsift.stats;
      if (s) {
        const trips = [`footers ${s.footer_round_trips}`,
          ...s.stages.filter((x) => x.round_trips > 0).map((x) => `${x.stage} ${x.round_trips}`),
          `data ${s.data_round_trips}`];
        out(`|  | pqsift says | | ${s.requests} | ${s.round_trips} | ${s.bytes_read} | | | ${trips.join(', ')} |`);
      }
    }
    out();
  }
  if (args.only.includes('full')) {
    // The server here is the proxy itself in origin mode (fault_proxy.py --root: sendfile, one
    // loopback hop): nginx behind the Python proxy cost ~1.8 s of CPU per GiB on the two cores
    // the scan runs on, which no prefetch can hide. The server still shares those cores, so the
    // section runs at the bench's thread count and at 1 thread (the server gets a core of its
    // own, as a remote store would). Local and HTTP runs interleaved, round by round.
    const origins = {};
    for (const delay of args.delays) {
      origins[delay] = await startProxy(null, delay, ['--root', path.dirname(file.path)]);
    }
    for (const threads of [...new Set([args.threads, 1])]) {
      out(`## Full scan (every column, output discarded), ${threads} thread${threads > 1 ? 's' : ''}`);
      out();
      out('| where | requests | round trips | MiB read | time (ms) | rows/s | vs local | pqsift: waves, waiting (ms) | pqsift CPU (s) |');
      out('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
      const local = [];
      const remote = Object.fromEntries(args.delays.map((d) => [d, []]));
      for (let k = 0; k < args.runs; k++) {
        local.push(runPqsift(['scan', file.path, '--format', 'none'], {}, threads));
        for (const delay of args.delays) {
          await proxyCall(origins[delay], 'reset');
          const r = runPqsift(['scan', `http://127.0.0.1:${origins[delay]}/${name}`, '--format', 'none'], {}, threads);
          remote[delay].push({ ...r, counts: await proxyCall(origins[delay], 'stats') });
        }
      }
      const localMs = median(local.map((r) => r.ms));
      const ls = local[0].stats;
      out(`| local | ${ls.requests} | ${ls.round_trips} | ${mib(ls.bytes_read)} | ${localMs.toFixed(0)} | ` +
          `${(args.rows / localMs * 1000 / 1e6).toFixed(1)} M | 100% | ${ls.waves}, ${(ls.io_wait_seconds * 1e3).toFixed(0)} | ` +
          `${median(local.map((r) => r.cpu)).toFixed(2)} |`);
      for (const delay of args.delays) {
        const runs = remote[delay];
        const ms = median(runs.map((r) => r.ms));
        const { counts, stats: ps } = runs[0];
        out(`| HTTP +${delay} ms | ${counts.requests} | ${counts.round_trips} | ${mib(counts.bytes)} | ` +
            `${ms.toFixed(0)} | ${(args.rows / ms * 1000 / 1e6).toFixed(1)} M | ${(100 * localMs / ms).toFixed(0)}% | ` +
            `${ps.waves}, ${(ps.io_wait_seconds * 1e3).toFixed(0)} | ${median(runs.map((r) => r.cpu)).toFixed(2)} |`);
      }
      out();
    }
  }
}

if (args.only.includes('dataset')) {
  const datasetDir = [path.join(args.dataDir, 'dataset-v1'), path.join(root, 'bench', 'data', 'dataset-v1')]
    .find((d) => fs.existsSync(path.join(d, '.complete')));
  const s3rver = path.join(peers, '.bin', 's3rver');
  if (!datasetDir) {
    out('## The 2,000-file dataset on S3: skipped (bench/data/dataset-v1 missing: run node bench/dataset_vs_peers.mjs once)');
  } else {
    const s3Port = freePort();
    children.push(spawn(s3rver, ['-d', path.join(work, 's3'), '-a', '127.0.0.1', '-p', String(s3Port), '-s',
      '--configure-bucket', 'bkt'], { stdio: 'ignore',
      // s3rver makes ListObjectsV2 continuation tokens with DES: OpenSSL 3's legacy provider.
      env: { ...process.env, NODE_OPTIONS: '--openssl-legacy-provider' } }));
    await waitPort(s3Port);
    const files = [];
    const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (e.name.endsWith('.parquet')) files.push(p); } };
    walk(datasetDir);
    log(`uploading ${files.length} files to s3rver ...`);
    const put = (local, key) => spawn('curl', ['-sS', '-f', '--aws-sigv4', 'aws:amz:us-east-1:s3', '--user', 'S3RVER:S3RVER',
      '-H', 'x-amz-content-sha256: UNSIGNED-PAYLOAD', '-T', local, `http://127.0.0.1:${s3Port}/bkt/${key}`], { stdio: 'ignore' });
    for (let i = 0; i < files.length; i += 16) {
      await Promise.all(files.slice(i, i + 16).map((f) => new Promise((resolve) => put(f, `dataset/${path.relative(datasetDir, f)}`).on('exit', resolve))));
    }
    const env = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
    const days = fs.readdirSync(datasetDir).filter((d) => d.startsWith('day=')).sort();
    const day = days[Math.floor(days.length / 2)].slice(4);
    out(`## The ${files.length}-file hive dataset on S3 (s3rver), count(*)`);
    out();
    out('| delay | query | files listed | files opened | footer requests | requests | round trips | list requests | MiB | time (ms) |');
    out('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    const ids = (() => { // 1% of the files by a file column, as the datasets bench: ids are sorted across days
      const n = files.length * 10_000; const lo = Math.floor(n / 2) + 17; return [lo, lo + Math.floor(n / 100) - 35];
    })();
    const queries = [
      { name: `day = DATE '${day}'`, where: `day = DATE '${day}'`, extra: ['--no-manifest'] },
      { name: `1% by id (no manifest)`, where: `id BETWEEN ${ids[0]} AND ${ids[1]}`, extra: ['--no-manifest'] },
      { name: `1% by id (manifest)`, where: `id BETWEEN ${ids[0]} AND ${ids[1]}`, manifest: true },
    ];
    let manifestUploaded = false;
    for (const delay of args.delays) {
      const proxyPort = await startProxy(s3Port, delay);
      const endpoint = `http://127.0.0.1:${proxyPort}`;
      for (const q of queries) {
        if (q.manifest && !manifestUploaded) {
          const local = path.join(work, '_pqsift_manifest.parquet');
          const r = spawnSync(args.pqsift, ['index', 's3://bkt/dataset/', '-o', local, '--s3-endpoint', endpoint],
            { encoding: 'utf8', env: { ...process.env, ...env } });
          if (r.status !== 0) { out(`| ${delay} ms | ${q.name} | pqsift index failed: ${r.stderr.trim()} |`); continue; }
          await new Promise((resolve) => put(local, 'dataset/_pqsift_manifest.parquet').on('exit', resolve));
          manifestUploaded = true;
        }
        const r = await measure(proxyPort, Math.min(args.runs, 2), () => {
          const x = runPqsift(['count', 's3://bkt/dataset/', '--where', q.where, '--s3-endpoint', endpoint,
            ...(q.extra ?? [])], env);
          return { ms: x.ms, rows: Number(x.out.trim()), stats: x.stats };
        });
        const s = r.stats;
        out(`| ${delay} ms | ${q.name} | ${s.files_total} | ${s.files} | ${s.footer_requests} | ${r.counts.requests} | ` +
            `${r.counts.round_trips} | ${Math.ceil(s.files_total / 1000)} | ${mib(r.counts.bytes)} | ${r.ms.toFixed(0)} |`);
      }
    }
    out();
  }
}

fs.mkdirSync(path.dirname(args.out), { recursive: true });
fs.writeFileSync(args.out, lines.join('\n') + '\n');
log(`wrote ${args.out}`);
process.exit(0);

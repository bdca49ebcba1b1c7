// Running pqsift for a benchmark: the CLI as a fresh process (timed by the parent, around the
// whole process), and the library through bench/micro's drivers (timed inside the driver, around
// the query only, as the peers are).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const statsFile = path.join(os.tmpdir(), `pqsift_bench_stats_${process.pid}.json`);

// bench/micro/pqsift_process_timer next to the pqsift binary's build (BUILD/src/pqsift ->
// BUILD/bench/micro/), when built.
function processTimerFor(binary) {
  const timer = path.join(path.dirname(path.dirname(binary)), 'bench', 'micro', 'pqsift_process_timer');
  return fs.existsSync(timer) ? timer : null;
}

// One process: wall time from fork to exit, CPU time (user + system) and peak RSS. Timed by
// pqsift_process_timer when built (microseconds; Node's own spawn cost, 20-50 ms, left out);
// otherwise by /usr/bin/time (CPU at 10 ms resolution) with the wall time taken around Node's
// spawn.
export function timeProcess(binary, argv) {
  const timer = processTimerFor(binary);
  const [cmd, cmdArgs] = timer
    ? [timer, [binary, ...argv]]
    : ['/usr/bin/time', ['-f', 'PQSIFT_MAXRSS_KB=%M PQSIFT_CPU_S=%U+%S', binary, ...argv]];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, cmdArgs, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const spawnMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${path.basename(binary)} ${argv.join(' ')} failed: ${r.stderr.trim().slice(-2000)}`);
  if (timer) {
    const m = /PQSIFT_TIMER wall_ms=([0-9.]+) cpu_ms=([0-9.]+) maxrss_kb=(\d+)/.exec(r.stderr);
    if (!m) throw new Error(`pqsift_process_timer printed no timing: ${r.stderr.trim().slice(-500)}`);
    return { ms: Number(m[1]), cpuMs: Number(m[2]), peakKb: Number(m[3]), stdout: r.stdout, stderr: r.stderr };
  }
  const cpu = /PQSIFT_CPU_S=([0-9.]+)\+([0-9.]+)/.exec(r.stderr);
  const rss = /PQSIFT_MAXRSS_KB=(\d+)/.exec(r.stderr);
  return { ms: spawnMs, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1e3 : null, peakKb: rss ? Number(rss[1]) : null,
           stdout: r.stdout, stderr: r.stderr };
}

export function checkTimeInstalled() {
  if (!fs.existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is needed (apt-get install time)');
}

// `pqsift scan|count FILE ... --stats-json`: rows returned and bytes read from pqsift's counters.
// `extra` holds the query's flags (--where, --select, --limit, --order-by, --threads).
export function runPqsift(pqsift, command, file, extra) {
  const output = command === 'scan' ? ['--format', 'none'] : [];
  fs.rmSync(statsFile, { force: true });
  const r = timeProcess(pqsift, [command, file, ...output, ...extra, '--stats-json', statsFile]);
  const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
  const rows = command === 'count' ? Number(r.stdout.trim()) : stats.rows_returned;
  return { ms: r.ms, cpuMs: r.cpuMs, peakKb: r.peakKb, rows, bytesRead: stats.bytes_read, stats };
}

// `pqsift explain --json FILE`: the footer only. Rows = the file's rows (from the footer).
export function runPqsiftExplain(pqsift, file, extra = []) {
  const r = timeProcess(pqsift, ['explain', '--json', file, ...extra]);
  const plan = JSON.parse(r.stdout);
  return { ms: r.ms, cpuMs: r.cpuMs, peakKb: r.peakKb, rows: plan.summary.rows_total, bytesRead: plan.summary.bytes_read_so_far };
}

// bench/micro/pqsift_query_bench: one query in a fresh process, timed inside it around
// Scanner::Open + every Next() (footer, plan, fetch, decode).
export function runLibrary(queryBench, file, { threads, where = '', columns = [], limit = -1, orderBy = '' }) {
  const argv = [file, '1', String(threads), where, columns.join(','), String(limit), orderBy];
  const r = spawnSync(queryBench, argv, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`pqsift_query_bench ${argv.join(' ')} failed: ${r.stderr.trim()}`);
  const j = JSON.parse(r.stdout.trim().split('\n').pop());
  return { ms: j.ms[0], cpuMs: j.cpu_ms?.[0] ?? null, rows: j.rows, bytesRead: j.bytes_read, peakKb: null };
}

// bench/micro/pqsift_footer_bench FILE ITERATIONS: open + footer decode, timed inside the
// process; prints `per_footer_us=<float> rows=<n>`.
export function runFooterBench(footerBench, file, iterations = 1) {
  const r = spawnSync(footerBench, [file, String(iterations)], { encoding: 'utf8' });
  const m = /^per_footer_us=([0-9.eE+-]+)(?: rows=(\d+))?$/.exec(r.stdout.trim());
  if (r.status !== 0 || !m) throw new Error(`pqsift_footer_bench ${file} printed ${JSON.stringify(r.stdout.slice(0, 200))} ${r.stderr.trim()}`);
  return { ms: Number(m[1]) / 1e3, cpuMs: null, rows: m[2] == null ? null : Number(m[2]), bytesRead: null, peakKb: null };
}

// `bench/run --micro`: runs the Google Benchmark micro-benchmarks of bench/micro (hot paths:
// decoders, RLE/bit unpacking, filter evaluation, selection intersection) and the footer decode
// timer on the wide file, and writes one Markdown table per binary to bench/results/micro.md.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fmt, gitRevision, isoNow, machine, uptime } from './common.mjs';
import { runFooterBench } from './pqsift.mjs';

const BINARIES = ['pqsift_encoding_bench', 'pqsift_filter_bench'];

function runGoogleBenchmark(binary) {
  const r = spawnSync(binary, ['--benchmark_format=json', '--benchmark_min_time=0.3'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${binary} failed: ${r.stderr.trim().slice(-2000)}`);
  return JSON.parse(r.stdout).benchmarks;
}

const perSecond = (x, unit) => (x == null ? '' : x >= 1e9 ? `${fmt(x / 1e9)} G${unit}/s` : `${fmt(x / 1e6)} M${unit}/s`);

export function runMicro(args, out, log) {
  const sections = [];
  for (const name of BINARIES) {
    const binary = path.join(args.microDir, name);
    if (!fs.existsSync(binary)) throw new Error(`no ${binary}: build the target ${name}`);
    log(`micro: ${name} ...`);
    const rows = runGoogleBenchmark(binary).map((b) =>
      `| ${b.name} | ${fmt(b.real_time)} ${b.time_unit} | ${fmt(b.cpu_time)} ${b.time_unit} | ${perSecond(b.items_per_second, 'items')} | ${perSecond(b.bytes_per_second, 'B')} |`);
    sections.push(`## ${name}`, '', '| benchmark | wall per iteration | CPU per iteration | items | bytes |',
                  '| --- | ---: | ---: | ---: | ---: |', ...rows, '');
  }
  const wide = fs.readdirSync(args.dataDir).find((f) => /^wide_.*\.parquet$/.test(f));
  if (wide) {
    log('micro: pqsift_footer_bench ...');
    const r = runFooterBench(path.join(args.microDir, 'pqsift_footer_bench'), path.join(args.dataDir, wide), 200);
    sections.push('## pqsift_footer_bench', '', `Open + footer decode of \`bench/data/${wide}\` (500 columns x 50 row groups): ` +
                  `${fmt(r.ms * 1e3)} µs per footer (median of 5 batches of 200).`, '');
  }
  const report = ['# Micro-benchmarks (bench/micro)', '',
    `Google Benchmark, \`--benchmark_min_time=0.3\`, one thread. ${isoNow()}; ${machine()}; pqsift git ${gitRevision()}; ` +
    `load: ${uptime()}. Items = values (decoders) or rows (filters, selections); bytes = decoded output.`, '',
    ...sections].join('\n');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, report);
  log(`micro: ${out}`);
}

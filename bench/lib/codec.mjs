// `bench/run --codec` (a section of the suite's report) and `bench/run --codec-only` (a report of
// its own): per file of the suite, the CPU time of the codec alone beside the CPU time of a
// whole pqsift scan, as a ratio. The goal (the DuckDB-files issue): a scan costs at most 1.3
// times the codec alone on every ZSTD and SNAPPY file, whoever wrote it.
//
// - Codec alone: bench/micro/pqsift_codec_bench FILE (codec_bench.cc): every page of every
//   column chunk decompressed with compression::Decompress, the scan's own entry point, nothing
//   decoded; its thread CPU time around the Decompress calls only (chunk reads and page headers
//   left out).
// - Scan: `pqsift scan FILE --format none --threads 1 --stats-json F`, CPU time (user + system)
//   of the whole process from bench/micro/pqsift_process_timer: exec, footer, reads (pread from
//   the page cache), decompression, decoding into Arrow-layout batches, exit.
//
// Both run one warm-up round (discarded), then `--reps` rounds, interleaved; medians.
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fmt, median } from './common.mjs';
import { runPqsift } from './pqsift.mjs';

export const GOAL = 1.3;

// One run of pqsift_codec_bench: its JSON line (see codec_bench.cc).
function codecBench(binary, file, extra = []) {
  const r = spawnSync(binary, [file, ...extra], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`${path.basename(binary)} ${file} ${extra.join(' ')} failed: ${r.stderr.trim().slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

// The file's pages per column from their headers alone ({columns: {name: {pages, ...}}, pages}).
export function pageCounts(binary, file) {
  return codecBench(binary, file, ['--headers-only']);
}

export function runCodecComparison(args, files, log) {
  const out = [];
  for (const [name, f] of Object.entries(files)) {
    log(`codec: ${name}: pqsift_codec_bench and pqsift scan --threads 1, ${args.reps} rounds after a warm-up ...`);
    const codec = [];
    const scan = [];
    for (let round = 0; round <= args.reps; round++) {
      const c = codecBench(args.codecBench, f.path);
      const s = runPqsift(args.pqsift, 'scan', f.path, ['--threads', '1']);
      if (round > 0) {
        codec.push(c);
        scan.push(s);
      }
    }
    out.push({
      name, file: f, codec: codec[0],
      codecCpuMs: median(codec.map((c) => c.cpu_s * 1e3)), codecWallMs: median(codec.map((c) => c.wall_s * 1e3)),
      scanCpuMs: median(scan.map((s) => s.cpuMs)), scanMs: median(scan.map((s) => s.ms)),
      scanPages: scan[0].stats.pages_decompressed, scanBytes: scan[0].stats.bytes_decompressed,
      scanPeakKb: Math.max(...scan.map((s) => s.peakKb ?? 0)) || null,
      codecSamples: codec.map((c) => c.cpu_s * 1e3), scanSamples: scan.map((s) => s.cpuMs),
    });
  }
  return out;
}

// The report's section: Markdown lines.
export function codecSection(args, results) {
  const compressed = results.filter((r) => r.codec.pages_decompressed > 0);
  const ratios = compressed.map((r) => r.scanCpuMs / r.codecCpuMs);
  const met = ratios.filter((x) => x <= GOAL).length;
  const lines = [
    '## Codec alone vs pqsift scan', '',
    `Per file: the CPU time of decompressing every page with the codec alone (\`bench/micro/pqsift_codec_bench FILE\`: ` +
    '`compression::Decompress`, the scan\'s entry point, over Debian\'s libzstd / libsnappy; nothing decoded; chunk reads and ' +
    'page headers outside the timing; one reused output buffer) beside the CPU time (user + system) of a whole ' +
    '`pqsift scan FILE --format none --threads 1` process (exec, footer, reads from the page cache, decompression, decoding, exit). ' +
    `Medians of ${args.reps} interleaved rounds after a warm-up. The goal: scan / codec at most ${GOAL} on every ZSTD and SNAPPY file. ` +
    'Pages: all the file\'s pages (data and dictionary) / those that went through the codec (a v2 page stores its levels ' +
    'uncompressed: only its values are; an UNCOMPRESSED file sends none); the scan\'s pages decompressed (`--stats-json`) ' +
    'count uncompressed pages too.', '',
    ratios.length
      ? `**Goal ${met === ratios.length ? 'met' : 'not met'}**: ${met} of ${ratios.length} compressed files at most ${GOAL}; ` +
        `ratios ${fmt(Math.min(...ratios))} to ${fmt(Math.max(...ratios))}.`
      : 'No compressed file among those measured.', '',
    '| file | codec | pages / through the codec | codec in -> out MB | codec-alone CPU ms | codec output MB/s | ' +
    'scan CPU ms (1 thread) | scan wall ms | scan pages decompressed | scan peak RSS | scan / codec CPU |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const c = r.codec;
    const ratio = c.pages_decompressed > 0 && r.codecCpuMs > 0 ? r.scanCpuMs / r.codecCpuMs : null;
    const ratioText = ratio == null ? 'n/a (uncompressed)' : ratio <= GOAL ? `**${ratio.toFixed(2)}**` : ratio.toFixed(2);
    lines.push(`| ${r.name} | ${c.codecs.join(', ')} | ${c.pages} / ${c.pages_decompressed} | ` +
               `${fmt(c.compressed_bytes / 1e6)} -> ${fmt(c.uncompressed_bytes / 1e6)} | ${fmt(r.codecCpuMs)} | ` +
               `${c.pages_decompressed > 0 ? fmt(c.uncompressed_bytes / 1e6 / (r.codecCpuMs / 1e3)) : 'n/a'} | ` +
               `${fmt(r.scanCpuMs)} | ${fmt(r.scanMs)} | ${r.scanPages} | ${r.scanPeakKb ? `${fmt(r.scanPeakKb / 1024)} MB` : 'n/a'} | ${ratioText} |`);
  }
  lines.push('', `Bold: at most ${GOAL}. CPU samples (ms), codec alone; scan:`, '');
  for (const r of results) lines.push(`- ${r.name}: ${r.codecSamples.map(fmt).join(', ')}; ${r.scanSamples.map(fmt).join(', ')}`);
  lines.push('');
  return lines;
}

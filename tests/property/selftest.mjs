#!/usr/bin/env node
// Tests differential.mjs itself, so that it cannot pass whatever the scanner returns. It runs the
// whole test with standin_pqsift.mjs (DuckDB's rows in pqsift's JSON Lines format) as --pqsift:
//
//  1. the clean stand-in passes, compares hundreds of cases, and the summary reports pruning;
//  2. each corruption of the stand-in (PQSIFT_STANDIN_CORRUPT) fails the run with the right kind
//     of report and a complete reproducer (file kept, predicate, commands, rerun line); the
//     rerun line alone reproduces the failure;
//  3. type errors from the scanner are counted, not failures, and failures under --strict;
//  4. run as real processes (not --in-process): clean passes, a crash is caught.
//
//   node tests/property/selftest.mjs --workdir DIR
// Prints `property_selftest: N passed, M failed`; exits 1 on any failure.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const NAME = 'property_selftest';
const differential = path.join(here, 'differential.mjs');
const standin = path.join(here, 'standin_pqsift.mjs');

const wi = process.argv.indexOf('--workdir');
if (wi < 0 || !process.argv[wi + 1]) {
  process.stderr.write('usage: node tests/property/selftest.mjs --workdir DIR\n');
  process.exit(2);
}
const workdir = path.resolve(process.argv[wi + 1]);
fs.rmSync(workdir, { recursive: true, force: true });
fs.mkdirSync(workdir, { recursive: true });

let passed = 0;
let failed = 0;
const ok = (name) => { passed++; process.stdout.write(`PASS ${name}\n`); };
const bad = (name, why, output) => {
  failed++;
  process.stdout.write(`FAIL ${name}: ${why}\n`);
  if (output) process.stdout.write(output.split('\n').slice(-25).map((l) => `  | ${l}`).join('\n') + '\n');
};

let runs = 0;
function run(label, argv, corrupt = '') {
  const dir = path.join(workdir, `${String(runs++).padStart(2, '0')}-${label}`);
  const r = spawnSync(process.execPath, [differential, '--pqsift', standin, '--workdir', dir, ...argv], {
    encoding: 'utf8', env: { ...process.env, PQSIFT_STANDIN_CORRUPT: corrupt }, maxBuffer: 1 << 28,
  });
  return { status: r.status, out: (r.stdout ?? '') + (r.stderr ?? ''), dir };
}
const lastLine = (out) => out.trim().split('\n').at(-1);

// 1. The clean stand-in passes.
const BASE = ['--in-process', '--seed', '5', '--files', '10', '--cases', '160'];
{
  const r = run('clean', BASE);
  const m = /compared (\d+) \((\d+) DuckDB rows/.exec(r.out);
  const p = /pruning: (\d+) of (\d+) compared cases/.exec(r.out);
  if (r.status !== 0 || !/: PASS$/.test(lastLine(r.out))) bad('clean stand-in passes', `exit ${r.status}`, r.out);
  else if (!m || Number(m[1]) < 120 || Number(m[2]) === 0) bad('clean stand-in compares enough cases', m ? m[0] : 'no summary', r.out);
  else if (!p || Number(p[1]) === 0) bad('clean stand-in reports pruning', p ? p[0] : 'no pruning line', r.out);
  else ok(`clean stand-in passes (${m[1]} cases, ${m[2]} rows, ${p[1]} pruned)`);
}

// 2. Each corruption is caught, with a reproducer that reproduces.
const CORRUPTIONS = [
  ['drop-pruned', /PRUNED != UNPRUNED/],
  ['order-pruned', /PRUNED != UNPRUNED/],
  ['extra', /\(PRUNED = UNPRUNED\) != DUCKDB: .* 1 only in pqsift/],
  ['flip', /\(PRUNED = UNPRUNED\) != DUCKDB/],
  ['null', /\(PRUNED = UNPRUNED\) != DUCKDB/],
  ['nan', /\(PRUNED = UNPRUNED\) != DUCKDB/],
];
for (const [mode, expected] of CORRUPTIONS) {
  const r = run(mode, [...BASE, '--max-mismatches', '1'], mode);
  const name = `corruption "${mode}" is caught`;
  if (r.status !== 1 || !/: FAIL/.test(lastLine(r.out))) { bad(name, `exit ${r.status}`, r.out); continue; }
  if (!expected.test(r.out)) { bad(name, `the report lacks ${expected}`, r.out); continue; }
  const missing = ['predicate: ', 'commands:', '--no-prune', 'read_parquet(', 'rerun: ', 'file: ']
    .filter((s) => !r.out.includes(s));
  const file = /^file: (\S+)/m.exec(r.out)?.[1];
  if (missing.length) { bad(name, `the reproducer lacks ${missing.join(', ')}`, r.out); continue; }
  if (!file || !fs.existsSync(file) || !fs.existsSync(file.replace(/\.parquet$/, '.json'))) {
    bad(name, `the file of the reproducer was not kept: ${file}`, r.out);
    continue;
  }
  if (!fs.readFileSync(path.join(r.dir, 'reproducers.txt'), 'utf8').includes('predicate: ')) {
    bad(name, 'reproducers.txt is empty', r.out);
    continue;
  }
  // The rerun line regenerates the same file and case, and fails again on that case alone.
  const rerun = /^rerun: node \S+ (.*)$/m.exec(r.out)?.[1];
  const caseId = /case (\d+\.\d+) \(seed/.exec(r.out)?.[1];
  const again = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${differential}" ${rerun} --workdir "${r.dir}-rerun"`],
                          { encoding: 'utf8', env: { ...process.env, PQSIFT_STANDIN_CORRUPT: mode }, maxBuffer: 1 << 28 });
  const againOut = (again.stdout ?? '') + (again.stderr ?? '');
  if (again.status !== 1 || !againOut.includes(`case ${caseId} (seed`) || !/ 1 cases in /.test(againOut)) {
    bad(name, `its rerun line (${rerun}) did not reproduce case ${caseId} alone`, againOut);
    continue;
  }
  ok(`${name} (case ${caseId}, reproduced by its rerun line)`);
}

// 3. Rejections: information by default, failures under --strict.
{
  const r = run('reject', BASE, 'reject-like');
  const n = Number(/pqsift rejects (\d+)/.exec(r.out)?.[1] ?? 0);
  if (r.status !== 0 || n === 0 || !r.out.includes('type error: LIKE')) bad('scanner type errors are counted, not failures', `exit ${r.status}, ${n} rejects`, r.out);
  else ok(`scanner type errors are counted, not failures (${n})`);
  const s = run('reject-strict', [...BASE, '--strict', '--max-mismatches', '1'], 'reject-like');
  if (s.status !== 1 || !s.out.includes('PQSIFT REJECTS WHAT DUCKDB ACCEPTS')) bad('scanner type errors fail under --strict', `exit ${s.status}`, s.out);
  else ok('scanner type errors fail under --strict');
}

// 4. As processes: the command line contract, exit codes and signals.
{
  const argv = ['--seed', '5', '--files', '2', '--cases', '6'];
  const r = run('process-clean', argv);
  if (r.status !== 0 || !/compared [1-9]/.test(r.out)) bad('clean stand-in passes as a process', `exit ${r.status}`, r.out);
  else ok('clean stand-in passes as a process');
  const c = run('process-crash', [...argv, '--max-mismatches', '1'], 'crash');
  if (c.status !== 1 || !/CRASH OR BAD EXIT[\s\S]*killed by SIGSEGV/.test(c.out)) bad('a crash is caught', `exit ${c.status}`, c.out);
  else ok('a crash is caught');
}

// 5. A pruned share below --min-pruned-share fails (a scanner that stopped pruning is noticed).
{
  const r = run('min-share', [...BASE.slice(0, -2), '--cases', '40', '--min-pruned-share', '0.99']);
  if (r.status !== 1 || !/--min-pruned-share 0.99/.test(r.out)) bad('--min-pruned-share fails a run that prunes less', `exit ${r.status}`, r.out);
  else ok('--min-pruned-share fails a run that prunes less');
}

process.stdout.write(`${NAME}: ${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

#!/usr/bin/env node
// The bounding-box acceptance of issue 22: a GEOMETRY file of N points (default 10,000,000)
// sorted along a Hilbert curve, written by `pqsift convert --geometry` with small row groups;
// boxes covering 0.1% of the extent must read under 2% of the file (`pqsift count --stats-json`:
// bytes_read / file_bytes), and the count must equal the unpruned one.
//
//   node bench/geo_box.mjs --pqsift build/src/pqsift [--rows N] [--row-group-rows R]
//        [--boxes K] [--data-dir bench/data] [--out bench/results/geo_box.md]
//
// The points: the square [0, 1000) x [0, 1000) cut into 4^11 Hilbert cells; row i lies in cell
// floor(i * 4^11 / N), at a random place inside it, so the file is in Hilbert order without a
// sort. The CSV (WKT text) and the Parquet file are cached in the data folder.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = { rows: 10_000_000, rowGroupRows: 10_000, boxes: 5, dataDir: path.join(here, 'data'),
  out: path.join(here, 'results/geo_box.md') };
for (let i = 2; i < process.argv.length; i++) {
  const x = process.argv[i];
  const val = () => process.argv[++i];
  if (x === '--pqsift') args.pqsift = path.resolve(val());
  else if (x === '--rows') args.rows = Number(val());
  else if (x === '--row-group-rows') args.rowGroupRows = Number(val());
  else if (x === '--boxes') args.boxes = Number(val());
  else if (x === '--data-dir') args.dataDir = path.resolve(val());
  else if (x === '--out') args.out = path.resolve(val());
  else throw new Error(`unknown argument ${x}`);
}
if (!args.pqsift) throw new Error('--pqsift PATH is required');

// Hilbert curve index -> cell (the classic iterative form).
function d2xy(order, d) {
  let x = 0, y = 0, t = d;
  for (let s = 1; s < (1 << order); s *= 2) {
    const rx = 1 & (t / 2);
    const ry = 1 & (t ^ rx);
    if (ry === 0) {
      if (rx === 1) { x = s - 1 - x; y = s - 1 - y; }
      [x, y] = [y, x];
    }
    x += s * rx;
    y += s * ry;
    t = Math.floor(t / 4);
  }
  return [x, y];
}

let seed = 12345;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

const ORDER = 11;
const CELLS = 4 ** ORDER;
const SIDE = 1000;
const CELL = SIDE / (1 << ORDER);
fs.mkdirSync(args.dataDir, { recursive: true });
const base = path.join(args.dataDir, `geo_points_${args.rows}`);
const csv = `${base}.csv`;
const parquet = `${base}_rg${args.rowGroupRows}.parquet`;
if (!fs.existsSync(parquet)) {
  if (!fs.existsSync(csv)) {
    const fd = fs.openSync(`${csv}.tmp`, 'w');
    fs.writeSync(fd, 'id,g\n');
    let chunk = [];
    for (let i = 0; i < args.rows; i++) {
      const [cx, cy] = d2xy(ORDER, Math.floor((i * CELLS) / args.rows));
      const x = (cx + rand()) * CELL;
      const y = (cy + rand()) * CELL;
      chunk.push(`${i},POINT (${x.toFixed(6)} ${y.toFixed(6)})`);
      if (chunk.length === 100_000) { fs.writeSync(fd, chunk.join('\n') + '\n'); chunk = []; }
    }
    if (chunk.length) fs.writeSync(fd, chunk.join('\n') + '\n');
    fs.closeSync(fd);
    fs.renameSync(`${csv}.tmp`, csv);
  }
  const t0 = Date.now();
  execFileSync(args.pqsift, ['convert', csv, `${parquet}.tmp`, '--schema', 'id:int64,g:string', '--geometry', 'g',
    '--row-group-rows', String(args.rowGroupRows), '--compression', 'zstd'], { stdio: 'inherit' });
  fs.renameSync(`${parquet}.tmp`, parquet);
  process.stdout.write(`converted in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
const fileBytes = fs.statSync(parquet).size;

function count(where, extra = []) {
  const stats = path.join(args.dataDir, 'geo_box_stats.json');
  const t0 = process.hrtime.bigint();
  const out = execFileSync(args.pqsift, ['count', parquet, '--where', where, '--stats-json', stats, ...extra]).toString().trim();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { rows: Number(out), seconds, stats: JSON.parse(fs.readFileSync(stats, 'utf8')) };
}

const side = SIDE * Math.sqrt(0.001);  // 0.1% of the extent's area
const lines = [];
let worst = 0;
for (let k = 0; k < args.boxes; k++) {
  const x0 = rand() * (SIDE - side);
  const y0 = rand() * (SIDE - side);
  const where = `st_intersects_extent(g, ${x0.toFixed(3)}, ${y0.toFixed(3)}, ${(x0 + side).toFixed(3)}, ${(y0 + side).toFixed(3)})`;
  const pruned = count(where);
  const full = count(where, ['--no-prune']);
  if (pruned.rows !== full.rows) throw new Error(`${where}: pruned ${pruned.rows} rows, unpruned ${full.rows}`);
  const share = pruned.stats.bytes_read / fileBytes;
  worst = Math.max(worst, share);
  lines.push(`| \`${where}\` | ${pruned.rows} | ${pruned.stats.row_groups_skipped} / ${pruned.stats.row_groups_total} | ` +
    `${pruned.stats.bytes_read} | ${(100 * share).toFixed(3)}% | ${pruned.seconds.toFixed(3)} | ${full.seconds.toFixed(3)} |`);
}

const report = `# Bounding-box pruning on a Hilbert-sorted GEOMETRY file

Generated by \`node bench/geo_box.mjs --rows ${args.rows} --row-group-rows ${args.rowGroupRows}\` on ${new Date().toISOString().slice(0, 10)}.

File: ${args.rows} points (\`id\` int64, \`g\` GEOMETRY written by \`pqsift convert --geometry g\`, zstd), in
Hilbert order over [0, 1000)^2, row groups of ${args.rowGroupRows} rows: ${fileBytes} bytes. Each query is
\`pqsift count --where "st_intersects_extent(g, ...)"\` with a box of 0.1% of the extent's area; pruning
uses the row groups' GeospatialStatistics bounding boxes (Parquet has no per-page boxes). Every count equals
the \`--no-prune\` count. Bytes read include the footer.

| filter | rows | row groups skipped | bytes read | share of file | seconds | seconds, --no-prune |
| --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}

Largest share read: ${(100 * worst).toFixed(3)}% (acceptance: under 2%).
`;
fs.mkdirSync(path.dirname(args.out), { recursive: true });
fs.writeFileSync(args.out, report);
process.stdout.write(report);

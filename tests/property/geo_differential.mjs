#!/usr/bin/env node
// Differential property test of the bounding-box filter (st_intersects_extent, docs/cli.md):
// random geometries written by `pqsift convert --geometry` (points, lines, polygons, MULTI*,
// collections, XY/Z/M/ZM, EMPTY ones, NaN coordinates, NULLs; spatially clustered so row groups
// have boxes worth pruning on) and parquet-testing's GEOGRAPHY files (boxes that wrap the
// antimeridian, poles), random query boxes (wrapping ones included). For each case:
//   pruned (`pqsift scan --where`) == `--no-prune` == a brute force over the WKB
// where the brute force is this file's own WKB walk (not pqsift's) over the bytes DuckDB returns
// for the column (ST_AsWKB), with the rule of src/geo/extent.h: NaN coordinates skipped axis by
// axis, for GEOGRAPHY also x outside [-180, 180] and y outside [-90, 90]; no X or no Y left: no
// extent, no match. For pqsift-written files it also checks that DuckDB reads every geometry
// back to the generator's own value (kind, dimensions, coordinates; a POINT of all NaN is EMPTY).
//
//   node tests/property/geo_differential.mjs --pqsift PATH [--files F] [--cases N] [--seed S]
//        [--workdir D] [--min-pruned-share X]
//
// --min-pruned-share X fails the run when fewer than X of the cases skipped a row group.
// The last line is `property_geo: PASS|FAIL ...`; exit 1 on FAIL.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CommandPool } from '../lib/command_pool.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');
const NAME = 'property_geo';
const pool = new CommandPool(2);

const args = { files: 6, cases: 240, seed: 1, minPrunedShare: 0 };
for (let i = 2; i < process.argv.length; i++) {
  const x = process.argv[i];
  const val = () => process.argv[++i];
  if (x === '--pqsift') args.pqsift = path.resolve(val());
  else if (x === '--files') args.files = Number(val());
  else if (x === '--cases') args.cases = Number(val());
  else if (x === '--seed') args.seed = Number(val());
  else if (x === '--workdir') args.workdir = val();
  else if (x === '--min-pruned-share') args.minPrunedShare = Number(val());
  else if (x === '--data') args.data = val();
  else { process.stdout.write(`${NAME}: unknown argument ${x}\n`); process.exit(2); }
}
const fail = (msg) => {
  process.stdout.write(`${NAME}: FAIL: ${msg}\n`);
  pool.close();
  process.exit(1);
};
if (!args.pqsift || !fs.existsSync(args.pqsift)) fail('--pqsift binary not found');
if (!fs.existsSync(path.join(peers, 'node_modules/@duckdb/node-api/package.json'))) {
  fail(`${peers}/node_modules lacks @duckdb/node-api; run scripts/setup`);
}
const { DuckDBInstance } = await import(pathToFileURL(path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js')));
const workdir = path.resolve(args.workdir ?? path.join(process.env.TMPDIR ?? '/tmp', `pqsift-geo-${args.seed}`));
fs.rmSync(workdir, { recursive: true, force: true });
fs.mkdirSync(workdir, { recursive: true });
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
const sqlPath = (p) => `'${p.replaceAll("'", "''")}'`;

// ---- deterministic randomness ----
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(args.seed * 7919 + 17);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const uniform = (lo, hi) => lo + (hi - lo) * rand();
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

// ---- the geometry model: { kind, dims, body } ----
// point body: [x, y, (z), (m)] or null (EMPTY); linestring: points; polygon: rings;
// multipoint: point bodies; multilinestring: linestrings; multipolygon: polygons;
// geometrycollection: geometries of the same dims.
const KINDS = ['POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON', 'GEOMETRYCOLLECTION'];
const DIMS = { XY: 2, XYZ: 3, XYM: 3, XYZM: 4 };
const TAG = { XY: '', XYZ: ' Z', XYM: ' M', XYZM: ' ZM' };

function coord(cx, cy, spread, n) {
  const c = [cx + uniform(-spread, spread), cy + uniform(-spread, spread)];
  while (c.length < n) c.push(uniform(-100, 100));
  // NaN coordinates now and then, one axis or all (2% of coordinates).
  if (rand() < 0.02) c[int(0, n - 1)] = NaN;
  if (rand() < 0.005) c.fill(NaN);
  return c;
}
function points(cx, cy, spread, n, count) {
  return Array.from({ length: count }, () => coord(cx, cy, spread, n));
}
function body(kind, dims, cx, cy, spread, depth) {
  const n = DIMS[dims];
  const empty = rand() < 0.08;
  switch (kind) {
    case 'POINT': {  // a point of all NaN is POINT EMPTY in WKB
      const p = empty ? null : coord(cx, cy, spread, n);
      return p === null || p.every(Number.isNaN) ? null : p;
    }
    case 'LINESTRING': return empty ? [] : points(cx, cy, spread, n, int(2, 5));
    case 'POLYGON': return empty ? [] : Array.from({ length: int(1, 2) }, () => points(cx, cy, spread, n, int(4, 6)));
    case 'MULTIPOINT': return empty ? [] : Array.from({ length: int(1, 3) }, () => body('POINT', dims, cx, cy, spread, depth));
    case 'MULTILINESTRING': return empty ? [] : Array.from({ length: int(1, 3) }, () => body('LINESTRING', dims, cx, cy, spread, depth));
    case 'MULTIPOLYGON': return empty ? [] : Array.from({ length: int(1, 2) }, () => body('POLYGON', dims, cx, cy, spread, depth));
    default:
      if (empty || depth > 2) return [];
      return Array.from({ length: int(1, 3) }, () => geometry(dims, cx, cy, spread, depth + 1));
  }
}
function geometry(dims, cx, cy, spread, depth = 0) {
  const kind = depth > 0 ? pick(KINDS) : pick([...KINDS, 'POINT', 'POINT', 'LINESTRING']);
  return { kind, dims, body: body(kind, dims, cx, cy, spread, depth) };
}

// ---- WKT (the input of convert) ----
const num = (v) => (Number.isNaN(v) ? 'nan' : Object.is(v, -0) ? '-0' : String(v));
const tuple = (c) => c.map(num).join(' ');
function wktBody(kind, b) {
  switch (kind) {
    case 'POINT': return b === null || b.every(Number.isNaN) ? 'EMPTY' : `(${tuple(b)})`;
    case 'LINESTRING': return b.length === 0 ? 'EMPTY' : `(${b.map(tuple).join(', ')})`;
    case 'POLYGON': return b.length === 0 ? 'EMPTY' : `(${b.map((r) => wktBody('LINESTRING', r)).join(', ')})`;
    case 'MULTIPOINT': return b.length === 0 ? 'EMPTY' : `(${b.map((p) => wktBody('POINT', p)).join(', ')})`;
    case 'MULTILINESTRING': return b.length === 0 ? 'EMPTY' : `(${b.map((l) => wktBody('LINESTRING', l)).join(', ')})`;
    case 'MULTIPOLYGON': return b.length === 0 ? 'EMPTY' : `(${b.map((p) => wktBody('POLYGON', p)).join(', ')})`;
    default: return b.length === 0 ? 'EMPTY' : `(${b.map(wkt).join(', ')})`;
  }
}
function wkt(g) {
  const b = wktBody(g.kind, g.body);
  return `${g.kind}${TAG[g.dims]} ${b}`;
}

// ---- an independent WKB walk: bytes -> model ----
function parseWkb(buf) {
  let pos = 0;
  const geom = (depth) => {
    if (depth > 40) throw new Error('deep');
    const le = buf[pos] === 1;
    pos += 1;
    const u32 = () => { const v = le ? buf.readUInt32LE(pos) : buf.readUInt32BE(pos); pos += 4; return v; };
    const f64 = () => { const v = le ? buf.readDoubleLE(pos) : buf.readDoubleBE(pos); pos += 8; return v; };
    let code = u32();
    let z = (code & 0x80000000) !== 0;
    let m = (code & 0x40000000) !== 0;
    if (code & 0x20000000) pos += 4;
    code &= 0x0fffffff;
    const th = Math.floor(code / 1000);
    if (th === 1 || th === 3) z = true;
    if (th === 2 || th === 3) m = true;
    const kind = KINDS[(code % 1000) - 1];
    const dims = z && m ? 'XYZM' : z ? 'XYZ' : m ? 'XYM' : 'XY';
    const n = DIMS[dims];
    const pt = () => Array.from({ length: n }, f64);
    const pts = () => Array.from({ length: u32() }, pt);
    let b;
    switch (kind) {
      case 'POINT': { const p = pt(); b = p.every(Number.isNaN) ? null : p; break; }
      case 'LINESTRING': b = pts(); break;
      case 'POLYGON': b = Array.from({ length: u32() }, pts); break;
      default: {
        const parts = Array.from({ length: u32() }, () => geom(depth + 1));
        b = kind === 'GEOMETRYCOLLECTION' ? parts : parts.map((p) => p.body);
      }
    }
    return { kind, dims, body: b };
  };
  const g = geom(0);
  if (pos !== buf.length) throw new Error('trailing bytes');
  return g;
}

// Every coordinate tuple of a model.
function* coords(kind, b) {
  switch (kind) {
    case 'POINT': if (b !== null) yield b; return;
    case 'LINESTRING': yield* b; return;
    case 'POLYGON': for (const r of b) yield* r; return;
    case 'MULTIPOINT': for (const p of b) yield* coords('POINT', p); return;
    case 'MULTILINESTRING': for (const l of b) yield* l; return;
    case 'MULTIPOLYGON': for (const p of b) yield* coords('POLYGON', p); return;
    default: for (const g of b) yield* coords(g.kind, g.body);
  }
}
function extent(g, geography) {
  let xmin = Infinity, xmax = -Infinity, ymin = Infinity, ymax = -Infinity;
  for (const [x, y] of coords(g.kind, g.body)) {
    if (!Number.isNaN(x) && (!geography || (x >= -180 && x <= 180))) { xmin = Math.min(xmin, x); xmax = Math.max(xmax, x); }
    if (!Number.isNaN(y) && (!geography || (y >= -90 && y <= 90))) { ymin = Math.min(ymin, y); ymax = Math.max(ymax, y); }
  }
  return xmin <= xmax && ymin <= ymax ? { xmin, xmax, ymin, ymax } : null;
}
function intersects(e, [qx0, qy0, qx1, qy1]) {
  if (e === null) return false;
  if (!(e.ymin <= qy1 && e.ymax >= qy0)) return false;
  if (qx0 <= qx1) return e.xmin <= qx1 && e.xmax >= qx0;
  return e.xmax >= qx0 || e.xmin <= qx1;
}
// Canonical text of a model (NaN spelled out; an all-NaN point is EMPTY already).
const canonical = (g) => JSON.stringify(g, (k, v) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : v));

// ---- files ----
const files = [];
for (let f = 0; f < args.files; f++) {
  const rows = int(300, 2500);
  const grid = int(4, 12);  // clusters along a serpentine over a grid: nearby rows, nearby shapes
  const spread = pick([0.01, 0.5, 3]);
  const model = [];
  const lines = ['id,g'];
  for (let i = 0; i < rows; i++) {
    const cell = Math.floor((i / rows) * grid * grid);
    const gx = Math.floor(cell / grid);
    const gy = gx % 2 === 0 ? cell % grid : grid - 1 - (cell % grid);
    const cx = -180 + (gx + 0.5) * (360 / grid) + uniform(-2, 2);
    const cy = -90 + (gy + 0.5) * (180 / grid) + uniform(-2, 2);
    let g = null;
    if (rand() >= 0.05) g = geometry(pick(['XY', 'XY', 'XY', 'XYZ', 'XYM', 'XYZM']), cx, cy, spread);
    model.push(g);
    lines.push(`${i},${g === null ? '' : `"${wkt(g)}"`}`);
  }
  const csv = path.join(workdir, `f${f}.csv`);
  const out = path.join(workdir, `f${f}.parquet`);
  fs.writeFileSync(csv, lines.join('\n') + '\n');
  const rg = String(pick([50, 100, 200, 500]));
  const r = await pool.run([args.pqsift, 'convert', csv, out, '--schema', 'id:int64,g:string', '--geometry', 'g',
                            '--row-group-rows', rg, '--page-rows', String(pick([10, 50, 1000]))]);
  if (r.status !== 0) fail(`convert f${f}: ${r.stderr}`);
  files.push({ path: out, column: 'g', geography: false, model });
}
const data = args.data ?? path.resolve(here, '../../../shared/data/parquet-testing/data/geospatial');
for (const [name, column, geography] of [['geography-points.parquet', 'geometry', true],
  ['geography-lines.parquet', 'geometry', true], ['geography-polygons.parquet', 'geometry', true],
  ['geospatial.parquet', 'geometry', false]]) {
  const p = path.join(data, name);
  if (fs.existsSync(p)) files.push({ path: p, column, geography, model: null });
}

// DuckDB's WKB of every row (in file order: row numbers from the scan), parsed by the walk above.
async function duckGeometries(file) {
  const reader = await con.runAndReadAll(
    `SELECT ST_AsWKB("${file.column}") AS w FROM read_parquet(${sqlPath(file.path)}, file_row_number = true) ORDER BY file_row_number`);
  return reader.getRowObjectsJS().map((r) => (r.w === null ? null : parseWkb(Buffer.from(r.w))));
}

// ---- cases ----
let compared = 0, pruned = 0, mismatches = 0, duckChecked = 0;
const perFile = Math.ceil(args.cases / files.length);
for (const file of files) {
  const geoms = await duckGeometries(file);
  if (file.model) {
    if (geoms.length !== file.model.length) fail(`${file.path}: DuckDB read ${geoms.length} rows, ${file.model.length} written`);
    for (let i = 0; i < geoms.length; i++) {
      const want = file.model[i] === null ? null : canonical(file.model[i]);
      const got = geoms[i] === null ? null : canonical(geoms[i]);
      if (want !== got) fail(`${file.path} row ${i}: DuckDB reads ${got}, written ${want}`);
      duckChecked++;
    }
  }
  const extents = geoms.map((g) => (g === null ? null : extent(g, file.geography)));
  for (let c = 0; c < perFile; c++) {
    let box;
    const e = extents[int(0, extents.length - 1)];
    const r = rand();
    if (r < 0.5 && e) {  // around a row's extent: tight, touching, or a little off
      const pad = pick([0, 0, 0.001, 1, 10]);
      box = [e.xmin - pad, e.ymin - pad, e.xmax + pad, e.ymax + pad];
      if (rand() < 0.2) box = [e.xmax, e.ymax, e.xmax + 5, e.ymax + 5];  // touching a corner
    } else if (r < 0.7) {  // wrapping the antimeridian
      box = [uniform(0, 180), uniform(-90, 0), uniform(-180, 0), uniform(0, 90)];
    } else {
      const x0 = uniform(-200, 200), y0 = uniform(-100, 100);
      box = [x0, y0, x0 + pick([0.1, 5, 50, 400]), y0 + pick([0.1, 5, 50, 200])];
    }
    const where = `st_intersects_extent(${file.column}, ${box.map((v) => String(v)).join(', ')})`;
    const argv = ['scan', file.path, '--where', where, '--select', file.column === 'g' ? 'id' : file.column, '--format', 'jsonl'];
    const stats = path.join(workdir, 'stats.json');
    const [a, b] = await Promise.all([
      pool.run([args.pqsift, ...argv, '--stats-json', stats]),
      pool.run([args.pqsift, ...argv, '--no-prune'])]);
    if (a.status !== 0 || b.status !== 0) fail(`${where} on ${file.path}: ${a.stderr}${b.stderr}`);
    const expected = extents.map((x, i) => (intersects(x, box) ? i : -1)).filter((i) => i >= 0).length;
    const rowsA = a.stdout.split('\n').filter((l) => l !== '').length;
    compared++;
    const s = JSON.parse(fs.readFileSync(stats, 'utf8'));
    if ((s.row_groups_skipped ?? 0) > 0) pruned++;
    if (a.stdout !== b.stdout || rowsA !== expected) {
      mismatches++;
      process.stdout.write(`${NAME}: mismatch on ${file.path}: ${where}: pruned ${rowsA} rows, ` +
        `unpruned ${b.stdout.split('\n').filter((l) => l !== '').length}, brute force ${expected}\n`);
      if (mismatches >= 10) break;
    }
  }
}
pool.close();
const share = compared ? pruned / compared : 0;
const summary = `${compared} cases over ${files.length} files, ${pruned} pruned a row group (${(100 * share).toFixed(1)}%), ` +
  `${duckChecked} geometries read back by DuckDB`;
if (mismatches > 0) { process.stdout.write(`${NAME}: FAIL: ${mismatches} mismatches; ${summary}\n`); process.exit(1); }
if (share < args.minPrunedShare) { process.stdout.write(`${NAME}: FAIL: pruned share below ${args.minPrunedShare}; ${summary}\n`); process.exit(1); }
process.stdout.write(`${NAME}: PASS: ${summary}\n`);

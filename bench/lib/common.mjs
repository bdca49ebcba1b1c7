// Helpers shared by the benchmark scripts (bench/*.mjs): paths, the Node.js peers, statistics,
// formatting, and the facts a report states about the machine and the versions it ran.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const root = path.resolve(benchDir, '..');
export const peers = path.join(root, 'tools', 'peers', 'node_modules');

// A SQL string literal.
export const sql = (s) => `'${String(s).replaceAll("'", "''")}'`;

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

// Three significant digits or so, 'n/a' for a missing figure.
export const fmt = (x) => (x == null || !Number.isFinite(x) ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
export const mb = (bytes) => (bytes == null ? null : bytes / 1e6);

export function requirePeers() {
  if (!fs.existsSync(path.join(peers, '@duckdb', 'node-api', 'package.json'))) {
    throw new Error(`${peers} is missing: run scripts/setup (or link tools/peers/node_modules)`);
  }
}
export async function loadDuckDB() {
  return import(pathToFileURL(path.join(peers, '@duckdb', 'node-api', 'lib', 'index.js')));
}
export async function loadPolars() {
  return (await import(pathToFileURL(path.join(peers, 'nodejs-polars', 'bin', 'index.js')))).default;
}
export function peerVersion(pkg) {
  return JSON.parse(fs.readFileSync(path.join(peers, ...pkg.split('/'), 'package.json'), 'utf8')).version;
}

export function procStatusKb(field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : null;
}
export function procIo(field) {
  const m = new RegExp(`^${field}: (\\d+)`, 'm').exec(fs.readFileSync('/proc/self/io', 'utf8'));
  return m ? Number(m[1]) : null;
}

export function cpuModel() {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    return m ? m[1].trim() : os.cpus()[0]?.model ?? 'unknown';
  } catch { return os.cpus()[0]?.model ?? 'unknown'; }
}

export function machine() {
  return `${os.cpus().length} cores (${cpuModel()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`;
}

export function gitRevision() {
  try {
    const git = (...a) => execFileSync('git', ['-C', root, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no');
    return git('rev-parse', '--short', 'HEAD') + (dirty ? ' (with uncommitted changes)' : '');
  } catch { return 'unknown'; }
}

export function uptime() {
  try { return execFileSync('uptime', { encoding: 'utf8' }).trim(); } catch { return `loadavg ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`; }
}

export const isoNow = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

// Waits up to 10 minutes while the 1-minute load average is above maxLoad.
export async function waitForQuiet(maxLoad, log) {
  for (let waited = 0; os.loadavg()[0] > maxLoad && waited < 600; waited += 30) {
    log(`load ${os.loadavg()[0].toFixed(2)} > ${maxLoad}, waiting 30 s (${uptime()})`);
    await new Promise((res) => setTimeout(res, 30000));
  }
}

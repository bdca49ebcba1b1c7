// DuckDB and Polars as benchmark peers: one long-lived Node.js process per engine (the library
// loaded once, as in an application), fed one query at a time, timing only the query.
//
//   const duck = await startPeer('duckdb', threads);
//   const r = await duck.run({ file, columns, filter, types, orderBy, limit, footerOnly });
//   // r = { ms, cpuMs, rows, bytesRead }
//   duck.close();
//
// A query: `columns` (null: all), `filter` (a bench/lib/filter.mjs tree, or null), `orderBy`
// ({ column, desc }), `limit`, or `footerOnly` (the file's row count from its footer only).
// DuckDB materialises the result in an in-memory table (`CREATE OR REPLACE TABLE t AS SELECT`:
// every value decoded and stored, nothing converted to JS values); Polars collects a
// scanParquet() plan into a DataFrame. Both run with the given threads: DuckDB `SET threads`,
// Polars POLARS_MAX_THREADS in its process's environment (read once, when Polars loads).
// Bytes read: growth of the process's `rchar` (/proc/self/io) over the query: read() calls,
// page-cache hits included; Polars memory-maps local files, so its figure means nothing.
// After each query, outside the timing, the result is dropped and the garbage collector run
// (the process has --expose-gc): V8 does not see the native memory behind a Polars DataFrame,
// so without it every full scan of 20M rows would keep its 2.4 GB until the machine runs out.
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadDuckDB, loadPolars, procIo, sql } from './common.mjs';
import { toPolars, toSql } from './filter.mjs';

const self = fileURLToPath(import.meta.url);

export async function startPeer(engine, threads) {
  const child = spawn(process.execPath, ['--expose-gc', self, 'serve', engine, String(threads)], {
    env: { ...process.env, POLARS_MAX_THREADS: String(threads) }, stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  let exited = null;
  lines.on('line', (line) => waiting.shift()?.resolve(line));
  child.on('exit', (code, signal) => {
    exited = `${engine} peer exited (${signal ?? code})`;
    for (const w of waiting.splice(0)) w.reject(new Error(exited));
  });
  const ask = (message) => new Promise((resolve, reject) => {
    if (exited) return reject(new Error(exited));
    waiting.push({ resolve, reject });
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });
  const hello = JSON.parse(await ask({ hello: true }));
  return {
    engine,
    version: hello.version,
    async run(query) {
      const r = JSON.parse(await ask(query));
      if (r.error) throw new Error(`${engine}: ${r.error}`);
      return r;
    },
    close() { child.stdin.end(); },
  };
}

async function duckdbRunner(threads) {
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const con = await instance.connect();
  await con.run(`SET threads = ${threads}`);
  const one = async (q) => Object.values((await con.runAndReadAll(q)).getRowObjectsJson()[0])[0];
  const version = await one('SELECT version()');
  return {
    version: `DuckDB ${version}`,
    async run(q) {
      const from = `read_parquet(${sql(q.file)})`;
      if (q.footerOnly) return Number(await one(`SELECT num_rows::BIGINT FROM parquet_file_metadata(${sql(q.file)})`));
      const cols = q.columns ? q.columns.map((c) => `"${c}"`).join(', ') : '*';
      let select = `SELECT ${cols} FROM ${from}`;
      if (q.filter) select += ` WHERE ${toSql(q.filter, q.types)}`;
      if (q.orderBy) select += ` ORDER BY "${q.orderBy.column}" ${q.orderBy.desc ? 'DESC' : 'ASC'}`;
      if (q.limit != null) select += ` LIMIT ${q.limit}`;
      await con.run(`CREATE OR REPLACE TABLE t AS ${select}`);
      return Number(await one('SELECT count(*)::BIGINT FROM t'));
    },
    async release() { await con.run('DROP TABLE IF EXISTS t'); },
  };
}

async function polarsRunner(threads) {
  if (process.env.POLARS_MAX_THREADS !== String(threads)) throw new Error('POLARS_MAX_THREADS not set by the parent');
  const pl = await loadPolars();
  return {
    version: 'Polars (nodejs-polars)',
    async run(q) {
      let lf = pl.scanParquet(q.file);
      if (q.footerOnly) return Number((await lf.select(pl.len().alias('n')).collect()).getColumn('n').get(0));
      if (q.filter) lf = lf.filter(toPolars(pl, q.filter, q.types));
      if (q.columns) lf = lf.select(...q.columns);
      if (q.orderBy) lf = lf.sort(q.orderBy.column, q.orderBy.desc);
      if (q.limit != null) lf = lf.limit(q.limit);
      return (await lf.collect()).height;
    },
    async release() {},
  };
}

// Two collections with a pause between: native finalizers (which free a DataFrame's buffers) run
// after the first.
async function collectGarbage() {
  for (let i = 0; i < 2; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function serve(engine, threads) {
  const runner = engine === 'duckdb' ? await duckdbRunner(threads) : engine === 'polars' ? await polarsRunner(threads) : null;
  if (!runner) throw new Error(`unknown engine ${engine}`);
  const out = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const q = JSON.parse(line);
    if (q.hello) { out({ version: runner.version }); continue; }
    try {
      const rchar0 = procIo('rchar');
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const rows = await runner.run(q);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const cpu = process.cpuUsage(cpu0);
      const bytesRead = procIo('rchar') - rchar0;
      await runner.release();
      await collectGarbage();
      out({ ms, cpuMs: (cpu.user + cpu.system) / 1e3, rows, bytesRead });
    } catch (e) {
      out({ error: String(e.message ?? e) });
    }
  }
}

if (process.argv[1] === self && process.argv[2] === 'serve') {
  serve(process.argv[3], Number(process.argv[4])).catch((e) => { process.stderr.write(`${e.stack ?? e}\n`); process.exit(1); });
}

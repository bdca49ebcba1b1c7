// Runs commands (pqsift, mostly) for the Node.js test harnesses, thousands of times, cheaply.
//
// Why not child_process.spawn: Node forks itself for every child, and a harness process that
// holds DuckDB is ~100 MB; on the 2-core CI VM one spawn then costs ~50 ms of wall time and
// ~7 ms of kernel time before the child even starts, more than most pqsift runs take. Here a
// few small bash workers are started once; each runs one command at a time, with its stdout and
// stderr in files, and reports the exit status. A fork of bash costs about a millisecond.
//
// run() resolves to { status, signal, timedOut, stdout, stderr } (the shape of spawn's close
// event; stdout is a string, or a Buffer with { buffer: true }): status is the exit code, or null when the command was killed by a signal (then
// signal names it, e.g. 'SIGSEGV') or ran past timeoutMs (then timedOut is true). A command
// that cannot be started reports status 127 and bash's message in stderr.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// bash quoting for one argument (NUL cannot occur in an argument).
export const shellQuote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${String(s).replaceAll("'", "'\\''")}'`);

// The worker: reads "id NUL command NUL" requests; answers "started id pid\n" once the command
// runs (the pool kills a pid that outlives its time limit) and "done id status\n" at its end
// (status 128 + n: the command died of signal n).
const WORKER = `
while IFS= read -r -d '' id && IFS= read -r -d '' cmd; do
  eval "$cmd" >"$PQSIFT_POOL_DIR/$id.out" 2>"$PQSIFT_POOL_DIR/$id.err" </dev/null &
  echo "started $id $!"
  wait $!
  echo "done $id $?"
done`;

const SIGNALS = Object.fromEntries(Object.entries(os.constants.signals).map(([name, n]) => [n, name]));

export class CommandPool {
  constructor(workers = 2) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqsift-pool-'));
    this.queue = [];
    this.pending = new Map();
    this.nextId = 0;
    this.idle = [];
    for (let w = 0; w < workers; w++) this.idle.push(this.#startWorker());
  }

  // argv[0] is the program; a path ending in .mjs runs under this Node.js.
  run(argv, timeoutMs = 120000, { buffer = false } = {}) {
    const full = argv[0].endsWith('.mjs') ? [process.execPath, ...argv] : argv;
    return new Promise((resolve) => {
      this.queue.push({ id: String(this.nextId++), full, timeoutMs, buffer, resolve });
      this.#dispatch();
    });
  }

  close() {
    for (const w of this.idle) w.stdin.end();
    this.idle = [];
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  #startWorker() {
    const worker = spawn('bash', ['-c', WORKER], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, PQSIFT_POOL_DIR: this.dir },
    });
    // An idle worker keeps the harness alive no longer than its own work does.
    const hold = (on) => {
      for (const h of [worker, worker.stdin, worker.stdout]) on ? h.ref() : h.unref();
    };
    worker.hold = hold;
    hold(false);
    let buffered = '';
    worker.stdout.on('data', (d) => {
      buffered += d.toString('utf8');
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const [event, id, value] = buffered.slice(0, nl).split(' ');
        buffered = buffered.slice(nl + 1);
        if (event === 'started') {
          this.#watch(id, Number(value));
          continue;
        }
        this.#finish(id, Number(value));
        worker.hold(false);
        this.idle.push(worker);
        this.#dispatch();
      }
    });
    return worker;
  }

  #dispatch() {
    while (this.queue.length && this.idle.length) {
      const job = this.queue.shift();
      const worker = this.idle.pop();
      this.pending.set(job.id, job);
      worker.hold(true);
      worker.stdin.write(`${job.id}\0exec ${job.full.map(shellQuote).join(' ')}\0`);
    }
  }

  #watch(id, pid) {
    const job = this.pending.get(id);
    job.timer = setTimeout(() => {
      job.timedOut = true;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // it ended meanwhile
      }
    }, job.timeoutMs);
  }

  #finish(id, code) {
    const job = this.pending.get(id);
    this.pending.delete(id);
    clearTimeout(job.timer);
    const take = (ext, encoding) => {
      const file = path.join(this.dir, `${id}.${ext}`);
      const content = fs.readFileSync(file, encoding);
      fs.rmSync(file, { force: true });
      return content;
    };
    const stdout = take('out', job.buffer ? null : 'utf8');
    const stderr = take('err', 'utf8');
    const timedOut = job.timedOut === true;
    const signal = !timedOut && code > 128 ? (SIGNALS[code - 128] ?? `signal ${code - 128}`) : null;
    job.resolve({ status: timedOut || signal ? null : code, signal, timedOut, stdout, stderr });
  }
}

// The start every dataset-level property test shares: its flags parsed (--pqsift, --seed,
// --datasets, --cases-per-dataset, --workdir and the test's own numeric threshold), the pqsift
// binary and the npm DuckDB checked, a fresh work folder, and one in-process DuckDB connection
// (one thread, the oracle). Failures print `NAME: FAIL: ...` and exit 1 (2 for an unknown flag),
// as each test's last line would.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../tools/peers');

// `defaults`: the args before the flags; `threshold`: [flag, key] of the test's numeric
// threshold; `workdirPrefix`: the default work folder is $TMPDIR/<prefix>-<seed>.
export async function startHarness({ name, defaults, threshold, workdirPrefix }) {
  const args = { ...defaults };
  for (let i = 2; i < process.argv.length; i++) {
    const x = process.argv[i];
    const val = () => process.argv[++i];
    if (x === '--pqsift') args.pqsift = val();
    else if (x === '--seed') args.seed = val();
    else if (x === '--datasets') args.datasets = Number(val());
    else if (x === '--cases-per-dataset') args.casesPerDataset = Number(val());
    else if (x === '--workdir') args.workdir = val();
    else if (x === threshold[0]) args[threshold[1]] = Number(val());
    else { process.stdout.write(`${name}: unknown argument ${x}\n`); process.exit(2); }
  }
  if (!args.pqsift || !fs.existsSync(args.pqsift)) {
    process.stdout.write(`${name}: FAIL: --pqsift PATH (the binary) is required and must exist\n`);
    process.exit(1);
  }
  const duckModule = path.join(peers, 'node_modules/@duckdb/node-api/lib/index.js');
  if (!fs.existsSync(duckModule)) {
    process.stdout.write(`${name}: FAIL: ${path.join(peers, 'node_modules')} lacks @duckdb/node-api; run scripts/setup\n`);
    process.exit(1);
  }
  const workdir = path.resolve(args.workdir ?? path.join(process.env.TMPDIR ?? '/tmp', `${workdirPrefix}-${args.seed}`));
  fs.rmSync(workdir, { recursive: true, force: true });
  fs.mkdirSync(workdir, { recursive: true });
  const { DuckDBInstance } = await import(pathToFileURL(duckModule));
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await instance.connect();
  const query = async (sql) => (await con.runAndReadAll(sql)).getRows();
  return { args, workdir, con, query };
}

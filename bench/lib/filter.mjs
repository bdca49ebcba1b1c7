// One filter, three dialects: a small tree written once per query and rendered as pqsift's
// `--where` text (which DuckDB's SQL reads alike) and as a Polars expression, so that every
// engine runs the same predicate.
//
//   ['and', f, g, ...]  ['or', f, g, ...]
//   ['=', column, value]  ('<', '<=', '>', '>=' likewise)  ['between', column, lo, hi]
//
// `types` maps each column to int32, int64, double, string or timestamp_us; a timestamp value is
// written 'YYYY-MM-DD[ HH:MM:SS]' (UTC). Polars gets typed literals (pl.lit(v).cast(type)): a bare
// JS number is a Float64 literal and turns Polars' row-group pruning off.
import { sql } from './common.mjs';

const COMPARISONS = { '=': 'eq', '<': 'lt', '<=': 'ltEq', '>': 'gt', '>=': 'gtEq' };

function sqlLiteral(type, v) {
  if (type === 'timestamp_us') return `TIMESTAMP ${sql(v)}`;
  if (type === 'string') return sql(v);
  return String(v);
}

export function toSql(f, types) {
  const [op, ...a] = f;
  if (op === 'and' || op === 'or') return a.map((g) => `(${toSql(g, types)})`).join(` ${op.toUpperCase()} `);
  const type = types[a[0]];
  if (!type) throw new Error(`filter: unknown column ${a[0]}`);
  if (op === 'between') return `${a[0]} BETWEEN ${sqlLiteral(type, a[1])} AND ${sqlLiteral(type, a[2])}`;
  if (!(op in COMPARISONS)) throw new Error(`filter: unknown operator ${op}`);
  return `${a[0]} ${op} ${sqlLiteral(type, a[1])}`;
}

function polarsLiteral(pl, type, v) {
  switch (type) {
    case 'int32': return pl.lit(v).cast(pl.Int32);
    case 'int64': return pl.lit(v).cast(pl.Int64);
    case 'double': return pl.lit(v).cast(pl.Float64);
    case 'string': return pl.lit(v);
    case 'timestamp_us': return pl.lit(Date.parse(`${v.replace(' ', 'T')}Z`) * 1000).cast(pl.Datetime('us'));
    default: throw new Error(`filter: no Polars literal for type ${type}`);
  }
}

export function toPolars(pl, f, types) {
  const [op, ...a] = f;
  if (op === 'and' || op === 'or') return a.map((g) => toPolars(pl, g, types)).reduce((x, y) => x[op](y));
  const type = types[a[0]];
  const col = pl.col(a[0]);
  if (op === 'between') return col.gtEq(polarsLiteral(pl, type, a[1])).and(col.ltEq(polarsLiteral(pl, type, a[2])));
  return col[COMPARISONS[op]](polarsLiteral(pl, type, a[1]));
}

// The columns a filter reads.
export function filterColumns(f) {
  const [op, ...a] = f;
  if (op === 'and' || op === 'or') return [...new Set(a.flatMap(filterColumns))];
  return [a[0]];
}

// Pruning a variant path by its shredded column (VariantShredding.md): the per-file rewrite of
// the pruning filter that lets the statistics of `v.typed_value.a.typed_value` (chunk
// statistics, column index) prove `variant_get(v, '$.a', 'BIGINT') = 42` absent.
//
// A row's value at `$.a` comes from the shredded typed_value column when that is set, and
// otherwise can only come from a `value` column on the way: the field's own fallback
// (`v.typed_value.a.value`) or the variant's (`v.value`), including a partially shredded
// object's other fields. So each kVariantGet over a path of object fields that the file shreds
// down to a primitive becomes kGuarded(typed column, value columns...) (expr/expr.h): where a
// row group's or page's statistics show every one of those `value` columns all NULL, the typed
// column's evidence is the path's (its bounds, prune/proof.h; its dictionary, the same proof
// over value sets; its bloom filter, the bloom filter stage); anywhere else nothing is known,
// and the rows are read. Never a row lost: a container with a fallback value proves nothing.
//
// Rewritten only where the conversion to the requested type is the identity or a cast the
// prover understands (integers to BIGINT or DOUBLE, floats to DOUBLE, strings to VARCHAR,
// booleans, dates); other paths (array steps, unshredded or differently typed fields) stay
// kVariantGet: unknown, never pruned. The filter the scan evaluates is not changed.
//
// Thread safety: a pure function of its arguments.
#pragma once

#include "expr/expr.h"
#include "pqsift/schema.h"

namespace pqsift::scan {

// `filter` (bound to the file's columns by path, leaves resolved) with each shredded variant
// path rewritten as above; the new typed and `value` columns are appended to its columns.
expr::BoundFilter RewriteShreddedPaths(const expr::BoundFilter& filter, const Schema& file_schema);

}  // namespace pqsift::scan

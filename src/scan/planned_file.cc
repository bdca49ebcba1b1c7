#include "scan/planned_file.h"

#include <algorithm>

#include "arrow/builder.h"
#include "arrow/dictionary.h"
#include "arrow/widen.h"
#include "scan/constant_array.h"

namespace pqsift::scan {

bool DecodedColumn::DecodesAs(const DecodedColumn& output) const {
  if (constant || output.constant || row_index || output.row_index || leaves != output.leaves) {
    return false;
  }
  if (plan.type->ToString() != output.plan.type->ToString()) return false;
  if (type == nullptr) return !output.widen;
  return widen == output.widen && *type == *output.type;
}

Result<std::shared_ptr<Array>> DecodedColumn::Finish(std::shared_ptr<Array> decoded,
                                                     int64_t rows) const {
  if (constant_dictionary) return RepeatDictionaryIndex(constant_dictionary, 0, rows);
  if (constant) return MakeConstantArray(type, *constant, rows);
  if (widen) return WidenArray(*decoded, type);
  return decoded;
}

std::shared_ptr<Array> RowIndexArray(int64_t first_row,
                                     const std::vector<prune::RowRange>& pieces) {
  TypedBufferBuilder<int64_t> values;
  int64_t n = 0;
  for (const prune::RowRange& p : pieces) n += p.length();
  values.Reserve(n);
  for (const prune::RowRange& p : pieces) {
    for (int64_t row = p.begin; row < p.end; ++row) values.Append(first_row + row);
  }
  auto array = std::make_shared<Array>();
  array->type = Int64();
  array->length = n;
  array->buffers = {nullptr, values.Finish()};
  return array;
}

void SliceFilter::MatchOutputColumns(const std::vector<DecodedColumn>& outputs) {
  output_from_filter.clear();
  for (const DecodedColumn& out : outputs) {
    int from = -1;
    for (size_t k = 0; k < columns.size() && from < 0; ++k) {
      if (columns[k]->DecodesAs(out)) from = static_cast<int>(k);
    }
    output_from_filter.push_back(from);
  }
}

bool SliceFilter::FeedsOutputs() const {
  return std::any_of(output_from_filter.begin(), output_from_filter.end(),
                     [](int from) { return from >= 0; });
}

}  // namespace pqsift::scan

#include "write/shredder.h"

#include "arrow/bit_util.h"
#include "variant/shredding.h"

namespace pqsift::write {
namespace {

using Kind = PathStep::Kind;

class Planner {
 public:
  explicit Planner(ColumnPlan& plan) : plan_(plan) {}

  // Adds the subtree of a node named `name` of `type` below a parent reached by `steps` (with
  // the schema names `parts`), whose slots exist at definition level `def` and repetition
  // level `rep`.
  Status Add(const std::string& name, const DataType& type, bool nullable,
             std::vector<std::string> parts, std::vector<PathStep> steps, int16_t def,
             int16_t rep) {
    parts.push_back(name);
    if (nullable) ++def;
    const size_t at = plan_.elements.size();
    plan_.elements.emplace_back();
    Element(at, name, nullable ? Repetition::kOptional : Repetition::kRequired);
    switch (type.id) {
      case TypeId::kStruct: {
        if (type.children.empty()) {
          return Status::NotSupported("a struct without fields cannot be stored in Parquet");
        }
        plan_.elements[at].num_children = static_cast<int32_t>(type.children.size());
        if (variant::IsVariantType(type)) {
          // arrow.parquet.variant: the group of metadata and value binaries annotated VARIANT
          // (VariantEncoding.md), so readers unshred it again.
          LogicalType annotation;
          annotation.kind = LogicalType::Kind::kVariant;
          plan_.elements[at].logical_type = annotation;
        }
        for (size_t i = 0; i < type.children.size(); ++i) {
          const Field& f = type.children[i];
          std::vector<PathStep> down = steps;
          down.push_back({Kind::kStruct, nullable, static_cast<int32_t>(i), 0});
          PQSIFT_RETURN_IF_ERROR(
              Add(f.name, *f.type, f.nullable, parts, std::move(down), def, rep));
        }
        return Status::OK();
      }
      case TypeId::kLargeList:
      case TypeId::kMap: {
        const bool is_list = type.id == TypeId::kLargeList;
        LogicalType annotation;
        annotation.kind = is_list ? LogicalType::Kind::kList : LogicalType::Kind::kMap;
        plan_.elements[at].logical_type = annotation;
        plan_.elements[at].converted_type = is_list ? ConvertedType::kList : ConvertedType::kMap;
        plan_.elements[at].num_children = 1;
        ++rep;
        ++def;  // the repeated group: at least one element
        steps.push_back({is_list ? Kind::kList : Kind::kMap, nullable, 0, rep});
        const std::string group = is_list ? "list" : "key_value";
        parts.push_back(group);
        const size_t repeated = plan_.elements.size();
        plan_.elements.emplace_back();
        Element(repeated, group, Repetition::kRepeated);
        if (is_list) {
          plan_.elements[repeated].num_children = 1;
          const Field& item = type.children.at(0);
          return Add(item.name, *item.type, item.nullable, std::move(parts), std::move(steps), def,
                     rep);
        }
        // The entries struct is the repeated group itself (never null); keys are required.
        const DataType& entries = *type.children.at(0).type;
        plan_.elements[repeated].num_children = static_cast<int32_t>(entries.children.size());
        for (size_t i = 0; i < entries.children.size(); ++i) {
          const Field& f = entries.children[i];
          std::vector<PathStep> down = steps;
          down.push_back({Kind::kStruct, false, static_cast<int32_t>(i), 0});
          PQSIFT_RETURN_IF_ERROR(
              Add(f.name, *f.type, i == 0 ? false : f.nullable, parts, std::move(down), def, rep));
        }
        return Status::OK();
      }
      default: break;
    }
    PQSIFT_ASSIGN_OR_RETURN(LeafSpec spec, LeafSpecFor(type));
    plan_.elements[at] = LeafSchemaElement(spec, plan_.names->back(), nullable);
    LeafPlan& leaf = plan_.leaves.emplace_back();
    leaf.spec = spec;
    leaf.max_definition_level = def;
    leaf.max_repetition_level = rep;
    steps.push_back({Kind::kLeaf, nullable, 0, 0});
    leaf.steps = std::move(steps);
    for (const std::string& part : parts) {
      if (!leaf.path.empty()) leaf.path += '.';
      leaf.path += part;
    }
    leaf.path_parts = std::move(parts);
    return Status::OK();
  }

 private:
  void Element(size_t at, const std::string& name, Repetition repetition) {
    plan_.elements[at].name = plan_.names->emplace_back(name);
    plan_.elements[at].repetition_type = repetition;
  }

  ColumnPlan& plan_;
};

// Walks one leaf's path through one record, appending its level entries and value slots.
class Walker {
 public:
  Walker(const LeafPlan& leaf, ShreddedLeaf& out)
      : steps_(leaf.steps),
        has_def_(leaf.max_definition_level > 0),
        has_rep_(leaf.max_repetition_level > 0),
        out_(out) {}

  // Slot `slot` (offset included) of `a`, the array of step `k`.
  Status Walk(size_t k, const Array& a, int64_t slot, int16_t def, int16_t rep) {
    const PathStep& step = steps_[k];
    const bool valid = a.buffers.empty() || a.buffers[0] == nullptr ||
                       bit_util::GetBit(a.buffers[0]->data(), slot);
    if (!valid) {
      if (!step.nullable) {
        return Status::InvalidArgument("a " + a.type->ToString() +
                                       " value is null where its field is not nullable");
      }
      Emit(def, rep);
      return Status::OK();
    }
    if (step.nullable) ++def;
    switch (step.kind) {
      case Kind::kLeaf:
        out_.slots.push_back(slot);
        Emit(def, rep);
        return Status::OK();
      case Kind::kStruct: {
        const Array& child = *a.children[step.child];
        return Walk(k + 1, child, child.offset + slot, def, rep);
      }
      case Kind::kList:
      case Kind::kMap: {
        const Array& child = *a.children[0];
        int64_t begin, end;
        if (step.kind == Kind::kList) {
          begin = a.buffers[1]->as<int64_t>()[slot];
          end = a.buffers[1]->as<int64_t>()[slot + 1];
        } else {
          begin = a.buffers[1]->as<int32_t>()[slot];
          end = a.buffers[1]->as<int32_t>()[slot + 1];
        }
        // ValidateArrayLayout checks the first and last offsets only.
        if (begin < 0 || begin > end || end > child.length) {
          return Status::InvalidArgument("a " + a.type->ToString() + " has offsets [" +
                                         std::to_string(begin) + ", " + std::to_string(end) +
                                         ") outside its " + std::to_string(child.length) +
                                         " child values");
        }
        if (begin == end) {
          Emit(def, rep);
          return Status::OK();
        }
        for (int64_t e = begin; e < end; ++e) {
          PQSIFT_RETURN_IF_ERROR(Walk(k + 1, child, child.offset + e, static_cast<int16_t>(def + 1),
                                      e == begin ? rep : step.repetition_level));
        }
        return Status::OK();
      }
    }
    return Status::OK();
  }

  int64_t entries() const { return entries_; }

 private:
  void Emit(int16_t def, int16_t rep) {
    if (has_def_) out_.definition_levels.push_back(def);
    if (has_rep_) out_.repetition_levels.push_back(rep);
    ++entries_;
  }

  const std::vector<PathStep>& steps_;
  const bool has_def_, has_rep_;
  ShreddedLeaf& out_;
  int64_t entries_ = 0;
};

}  // namespace

Result<ColumnPlan> PlanColumn(const Field& field) {
  ColumnPlan plan;
  Status st = Planner(plan).Add(field.name, *field.type, field.nullable, {}, {}, 0, 0);
  if (!st.ok()) return st;
  return plan;
}

Status Shred(const LeafPlan& leaf, const Array& column, int64_t offset, int64_t length,
             ShreddedLeaf& out) {
  out.definition_levels.clear();
  out.repetition_levels.clear();
  out.slots.clear();
  out.record_entries.clear();
  out.record_values.clear();
  // The leaf's array: down the path, the child each step goes through.
  const Array* values = &column;
  for (const PathStep& step : leaf.steps) {
    if (step.kind == Kind::kLeaf) break;
    values = values->children[step.kind == Kind::kStruct ? step.child : 0].get();
  }
  out.values = values;
  Walker walker(leaf, out);
  for (int64_t row = offset; row < offset + length; ++row) {
    out.record_entries.push_back(walker.entries());
    out.record_values.push_back(static_cast<int64_t>(out.slots.size()));
    PQSIFT_RETURN_IF_ERROR(walker.Walk(0, column, column.offset + row, 0, 0));
  }
  out.record_entries.push_back(walker.entries());
  out.record_values.push_back(static_cast<int64_t>(out.slots.size()));
  return Status::OK();
}

}  // namespace pqsift::write

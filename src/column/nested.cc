#include "column/nested.h"

#include <cstring>

#include "column/arrow_type.h"
#include "column/assemble.h"

namespace pqsift::column {
namespace {

using Kind = AssemblyNode::Kind;

bool IsAnnotated(const SchemaNode& n, LogicalType::Kind kind, ConvertedType converted) {
  return n.logical_type.kind == kind || n.converted_type == converted;
}

std::shared_ptr<const DataType> NestedType(TypeId id, std::vector<Field> children) {
  auto t = std::make_shared<DataType>();
  t->id = id;
  t->children = std::move(children);
  return t;
}

class Planner {
 public:
  Planner(const Schema& schema, std::vector<int32_t>* leaves) : s_(schema), leaves_(leaves) {}

  // A node in field position: its slots exist at (rep_level, def_exist). With `as_element`,
  // a repeated node is read as one element of the list it forms (its own repetition is
  // already accounted for by the caller).
  Result<AssemblyNode> Plan(int32_t index, int16_t rep_level, int16_t def_exist,
                            bool as_element = false) {
    const SchemaNode& n = s_.nodes()[index];
    if (n.repetition == Repetition::kRepeated && !as_element) {
      // An unannotated repeated field: a required list whose elements are the field itself.
      AssemblyNode list =
          Slot(Kind::kList, rep_level, def_exist, static_cast<int16_t>(n.max_definition_level - 1));
      PQSIFT_ASSIGN_OR_RETURN(AssemblyNode element, PlanElement(index));
      return MakeList(std::move(list), std::move(element), n.name, false);
    }
    if (n.is_leaf()) return PlanLeaf(index, rep_level, def_exist);
    const bool nullable = n.repetition == Repetition::kOptional;
    if (n.logical_type.kind == LogicalType::Kind::kVariant) {
      return PlanVariant(index, rep_level, def_exist, nullable);
    }
    if (IsAnnotated(n, LogicalType::Kind::kList, ConvertedType::kList) && n.children.size() == 1 &&
        s_.nodes()[n.children[0]].repetition == Repetition::kRepeated) {
      AssemblyNode list = Slot(Kind::kList, rep_level, def_exist, n.max_definition_level);
      PQSIFT_ASSIGN_OR_RETURN(AssemblyNode element, PlanListElement(index, n.children[0]));
      return MakeList(std::move(list), std::move(element), ElementName(index), nullable);
    }
    if ((IsAnnotated(n, LogicalType::Kind::kMap, ConvertedType::kMap) ||
         IsAnnotated(n, LogicalType::Kind::kMapKeyValue, ConvertedType::kMapKeyValue)) &&
        n.children.size() == 1) {
      const SchemaNode& kv = s_.nodes()[n.children[0]];
      if (kv.repetition == Repetition::kRepeated && !kv.is_leaf() && kv.children.size() == 2) {
        return PlanMap(index, rep_level, def_exist, nullable);
      }
      if (kv.repetition == Repetition::kRepeated && !kv.is_leaf() && kv.children.size() == 1) {
        // A map without values: the list of its keys.
        AssemblyNode list = Slot(Kind::kList, rep_level, def_exist, n.max_definition_level);
        PQSIFT_ASSIGN_OR_RETURN(AssemblyNode key, Plan(kv.children[0], kv.max_repetition_level,
                                                       kv.max_definition_level));
        return MakeList(std::move(list), std::move(key), s_.nodes()[kv.children[0]].name, nullable);
      }
    }
    return PlanStruct(index, rep_level, def_exist, n.max_definition_level, nullable);
  }

 private:
  static AssemblyNode Slot(Kind kind, int16_t rep_level, int16_t def_exist, int16_t def_valid) {
    AssemblyNode a;
    a.kind = kind;
    a.rep_level = rep_level;
    a.def_exist = def_exist;
    a.def_valid = def_valid;
    return a;
  }

  std::string ElementName(int32_t list_index) const {
    const SchemaNode& rp = s_.nodes()[s_.nodes()[list_index].children[0]];
    if (!rp.is_leaf() && rp.children.size() == 1 && !IsLegacyElementGroup(list_index)) {
      return std::string(s_.nodes()[rp.children[0]].name);
    }
    return std::string(rp.name);
  }

  // LogicalTypes.md backward-compatibility rules: the repeated group is itself the element when
  // it has several fields, or is named "array" or "<list name>_tuple".
  bool IsLegacyElementGroup(int32_t list_index) const {
    const SchemaNode& list = s_.nodes()[list_index];
    const SchemaNode& rp = s_.nodes()[list.children[0]];
    std::string_view name = rp.name;
    return rp.children.size() != 1 || name == "array" ||
           (name.size() == list.name.size() + 6 && name.starts_with(list.name) &&
            name.ends_with("_tuple"));
  }

  Result<AssemblyNode> PlanListElement(int32_t list_index, int32_t repeated_index) {
    const SchemaNode& rp = s_.nodes()[repeated_index];
    if (rp.is_leaf() || IsLegacyElementGroup(list_index)) return PlanElement(repeated_index);
    // The standard 3-level list: the repeated group's one child is the element.
    return Plan(rp.children[0], rp.max_repetition_level, rp.max_definition_level);
  }

  // A repeated node read as a (required) list element: a leaf, a struct of its fields, or
  // (when annotated) a list or map of its own.
  Result<AssemblyNode> PlanElement(int32_t index) {
    const SchemaNode& n = s_.nodes()[index];
    return Plan(index, n.max_repetition_level, n.max_definition_level, /*as_element=*/true);
  }

  Result<AssemblyNode> PlanLeaf(int32_t index, int16_t rep_level, int16_t def_exist) {
    const SchemaNode& n = s_.nodes()[index];
    AssemblyNode a = Slot(Kind::kLeaf, rep_level, def_exist, n.max_definition_level);
    a.leaf = n.column_index;
    a.first_leaf = n.column_index;
    PQSIFT_ASSIGN_OR_RETURN(a.type, ArrowTypeForLeaf(s_.columns()[n.column_index]));
    leaves_->push_back(n.column_index);
    return a;
  }

  Result<AssemblyNode> PlanStruct(int32_t index, int16_t rep_level, int16_t def_exist,
                                  int16_t def_valid, bool /*nullable*/) {
    const SchemaNode& n = s_.nodes()[index];
    if (n.children.empty()) {
      return Status::NotSupported("group '" + std::string(n.name) + "' has no fields");
    }
    AssemblyNode a = Slot(Kind::kStruct, rep_level, def_exist, def_valid);
    std::vector<Field> fields;
    for (int32_t child : n.children) {
      PQSIFT_ASSIGN_OR_RETURN(AssemblyNode c, Plan(child, rep_level, def_exist));
      const SchemaNode& cn = s_.nodes()[child];
      fields.push_back({std::string(cn.name), c.type, cn.repetition != Repetition::kRequired});
      a.children.push_back(std::move(c));
    }
    a.first_leaf = a.children.front().first_leaf;
    a.type = NestedType(TypeId::kStruct, std::move(fields));
    return a;
  }

  Result<AssemblyNode> PlanVariant(int32_t index, int16_t rep_level, int16_t def_exist,
                                   bool nullable) {
    PQSIFT_ASSIGN_OR_RETURN(variant::ShreddingPlan plan, variant::PlanShredding(s_, index));
    PQSIFT_ASSIGN_OR_RETURN(
        AssemblyNode group,
        PlanStruct(index, rep_level, def_exist, s_.nodes()[index].max_definition_level, nullable));
    AssemblyNode a = Slot(Kind::kVariant, rep_level, def_exist, group.def_valid);
    a.first_leaf = group.first_leaf;
    a.type = variant::VariantArrowType();
    a.variant = std::make_shared<const variant::ShreddingPlan>(std::move(plan));
    a.children.push_back(std::move(group));
    return a;
  }

  Result<AssemblyNode> PlanMap(int32_t index, int16_t rep_level, int16_t def_exist, bool) {
    const SchemaNode& n = s_.nodes()[index];
    const SchemaNode& kv = s_.nodes()[n.children[0]];
    AssemblyNode map = Slot(Kind::kMap, rep_level, def_exist, n.max_definition_level);
    PQSIFT_ASSIGN_OR_RETURN(AssemblyNode entries,
                            PlanStruct(n.children[0], kv.max_repetition_level,
                                       kv.max_definition_level, kv.max_definition_level, false));
    // Arrow map keys are never null.
    Field key_field{std::string(s_.nodes()[kv.children[0]].name), entries.children[0].type, false};
    Field value_field{std::string(s_.nodes()[kv.children[1]].name), entries.children[1].type,
                      s_.nodes()[kv.children[1]].repetition != Repetition::kRequired};
    entries.type = NestedType(TypeId::kStruct, {key_field, value_field});
    map.type = NestedType(TypeId::kMap, {Field{"entries", entries.type, false}});
    map.first_leaf = entries.first_leaf;
    map.children.push_back(std::move(entries));
    return map;
  }

  // `list_nullable` is carried by the Field that holds the list, not by the list type.
  static Result<AssemblyNode> MakeList(AssemblyNode list, AssemblyNode element,
                                       std::string_view name, bool /*list_nullable*/) {
    bool element_nullable = element.def_valid > element.def_exist;
    list.type =
        NestedType(TypeId::kLargeList, {Field{std::string(name), element.type, element_nullable}});
    list.first_leaf = element.first_leaf;
    list.children.push_back(std::move(element));
    return list;
  }

  const Schema& s_;
  std::vector<int32_t>* leaves_;
};

// ---- assembly ----

struct Levels {
  const std::vector<int16_t>* def;
  const std::vector<int16_t>* rep;
  int64_t n;
  int16_t Def(int64_t i) const { return def->empty() ? 0 : (*def)[i]; }
  int16_t Rep(int64_t i) const { return rep->empty() ? 0 : (*rep)[i]; }
  bool StartsSlot(int64_t i, const AssemblyNode& a) const {
    return Rep(i) <= a.rep_level && Def(i) >= a.def_exist;
  }
};

class Assembler {
 public:
  Assembler(const std::vector<int32_t>& leaves, std::vector<LeafBatch>& batches)
      : leaves_(leaves), batches_(batches) {}

  Result<std::shared_ptr<Array>> Build(const AssemblyNode& a) {
    Levels lv = LevelsOf(a.first_leaf);
    switch (a.kind) {
      case Kind::kLeaf: return BuildLeaf(a, lv);
      case Kind::kStruct: return BuildStruct(a, lv);
      case Kind::kList:
      case Kind::kMap: return BuildList(a, lv);
      case Kind::kVariant: {
        PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> group, Build(a.children.front()));
        return variant::Unshred(*a.variant, *group);
      }
    }
    return Status::Internal("unknown assembly node");
  }

 private:
  LeafBatch& BatchOf(int32_t leaf) {
    for (size_t i = 0; i < leaves_.size(); ++i) {
      if (leaves_[i] == leaf) return batches_[i];
    }
    return batches_.front();  // unreachable: every planned leaf has a batch
  }

  Levels LevelsOf(int32_t leaf) {
    LeafBatch& b = BatchOf(leaf);
    return {&b.definition_levels, &b.repetition_levels, b.num_levels};
  }

  // Validity of the slots of `a`, and their count; null when every slot is valid.
  std::shared_ptr<ArrowBuffer> Validity(const AssemblyNode& a, const Levels& lv, int64_t* slots,
                                        int64_t* nulls) {
    std::vector<int64_t> starts;
    for (int64_t i = 0; i < lv.n; ++i) {
      if (lv.StartsSlot(i, a)) starts.push_back(i);
    }
    *slots = static_cast<int64_t>(starts.size());
    *nulls = 0;
    for (int64_t i : starts) *nulls += lv.Def(i) < a.def_valid;
    if (*nulls == 0) return nullptr;
    auto bits = std::make_shared<ArrowBuffer>();
    bits->Resize(static_cast<size_t>((*slots + 7) / 8));
    std::memset(bits->data(), 0, bits->size());
    for (int64_t k = 0; k < *slots; ++k) {
      if (lv.Def(starts[k]) >= a.def_valid)
        bits->data()[k >> 3] |= static_cast<uint8_t>(1u << (k & 7));
    }
    return bits;
  }

  Result<std::shared_ptr<Array>> BuildLeaf(const AssemblyNode& a, const Levels& lv) {
    LeafBatch& b = BatchOf(a.leaf);
    if (a.rep_level == 0 && a.def_exist == 0) {
      return SpreadValues(b.values, b.definition_levels, b.num_records, a.def_valid);
    }
    std::vector<int16_t> slot_defs;
    for (int64_t i = 0; i < lv.n; ++i) {
      // Spread wants "valid" as equality with its max; map every valid level to def_valid.
      if (lv.StartsSlot(i, a)) slot_defs.push_back(lv.Def(i) >= a.def_valid ? a.def_valid : -1);
    }
    if (slot_defs.empty()) {
      if (b.values->length != 0) return Status::Corruption("values without slots in a leaf");
      return b.values;
    }
    return SpreadValues(b.values, slot_defs, static_cast<int64_t>(slot_defs.size()), a.def_valid);
  }

  Result<std::shared_ptr<Array>> BuildStruct(const AssemblyNode& a, const Levels& lv) {
    auto out = std::make_shared<Array>();
    out->type = a.type;
    out->buffers.push_back(Validity(a, lv, &out->length, &out->null_count));
    for (const AssemblyNode& c : a.children) {
      PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> child, Build(c));
      if (child->length != out->length) {
        return Status::Corruption("struct fields disagree on their number of values");
      }
      out->children.push_back(std::move(child));
    }
    return out;
  }

  Result<std::shared_ptr<Array>> BuildList(const AssemblyNode& a, const Levels& lv) {
    const AssemblyNode& element = a.children.front();
    auto out = std::make_shared<Array>();
    out->type = a.type;
    std::shared_ptr<ArrowBuffer> validity = Validity(a, lv, &out->length, &out->null_count);
    const bool is_map = a.kind == Kind::kMap;
    auto offsets = std::make_shared<ArrowBuffer>();
    const size_t width = is_map ? sizeof(int32_t) : sizeof(int64_t);
    offsets->Resize(static_cast<size_t>(out->length + 1) * width);
    int64_t count = 0;
    int64_t slot = 0;
    auto put = [&](int64_t k, int64_t v) {
      if (is_map) {
        offsets->as<int32_t>()[k] = static_cast<int32_t>(v);
      } else {
        offsets->as<int64_t>()[k] = v;
      }
    };
    for (int64_t i = 0; i < lv.n; ++i) {
      if (lv.StartsSlot(i, a)) put(slot++, count);
      if (lv.StartsSlot(i, element)) ++count;
    }
    put(slot, count);
    if (is_map && count > INT32_MAX)
      return Status::NotSupported("a batch of over 2^31 map entries");
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<Array> values, Build(element));
    if (values->length != count) {
      return Status::Corruption("list elements disagree between the levels and the values");
    }
    out->buffers = {validity, offsets};
    out->children.push_back(std::move(values));
    return out;
  }

  const std::vector<int32_t>& leaves_;
  std::vector<LeafBatch>& batches_;
};

}  // namespace

Result<AssemblyNode> PlanNode(const Schema& schema, int32_t node, std::vector<int32_t>* leaves) {
  const SchemaNode& n = schema.nodes()[node];
  if (n.parent >= 0 && schema.nodes()[n.parent].max_repetition_level > 0) {
    std::string message(n.name);
    message += " lies inside a repeated field; select the enclosing list";
    return Status::InvalidArgument(message);
  }
  Planner planner(schema, leaves);
  return planner.Plan(node, 0, 0);
}

Result<std::shared_ptr<Array>> Assemble(const AssemblyNode& plan,
                                        const std::vector<int32_t>& leaves,
                                        std::vector<LeafBatch>& batches) {
  Assembler assembler(leaves, batches);
  return assembler.Build(plan);
}

}  // namespace pqsift::column

// The typed chunk writer: one template over the physical type tag (encoding/types.h); the Arrow
// type decides only how values are gathered (Gather), once per step, never per value.
#include "write/column_chunk_writer.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>

#include "arrow/bit_util.h"
#include "compression/codec.h"
#include "encoding/dictionary_encoder.h"
#include "encoding/rle_bit_packed.h"
#include "encoding/value_encoder.h"
#include "format/metadata_encoder.h"
#include "write/bloom_filter_builder.h"
#include "write/bounds.h"
#include "write/chunk_statistics.h"

namespace pqsift::write {
namespace {

using encoding::ByteView;

// Rows taken from the input at a time between checks of the page's size.
constexpr int64_t kStepRows = 4096;

Status DecimalTooWide(const DataType& type) {
  return Status::InvalidArgument("a value has more digits than its type " + type.ToString() +
                                 " allows, so it cannot be stored in the type's Parquet width");
}

// The slots a step takes values from (slots count from the buffers' start, i.e. include the
// array's offset): the valid ones of [begin, begin + n) (a flat column), or the n slots listed
// (a nested column's leaf, shredder.h: all valid).
struct Slots {
  int64_t begin = 0;
  int64_t n = 0;
  const int64_t* list = nullptr;
};

// Appends fn(slot) for every slot of `s` that holds a value.
template <typename Value, typename Fn>
void GatherValid(const Array& a, const Slots& s, std::vector<Value>& out, Fn&& fn) {
  if (s.list != nullptr) {
    for (int64_t k = 0; k < s.n; ++k) out.push_back(fn(s.list[k]));
    return;
  }
  const uint8_t* validity = a.buffers[0] ? a.buffers[0]->data() : nullptr;
  if (validity == nullptr) {
    for (int64_t i = s.begin; i < s.begin + s.n; ++i) out.push_back(fn(i));
    return;
  }
  for (int64_t i = s.begin; i < s.begin + s.n; ++i) {
    if (bit_util::GetBit(validity, i)) out.push_back(fn(i));
  }
}

template <typename Value, typename Src>
void GatherCast(const Array& a, const Slots& s, std::vector<Value>& out) {
  const Src* src = a.buffers[1]->as<Src>();
  GatherValid(a, s, out, [src](int64_t i) { return static_cast<Value>(src[i]); });
}

// The values of one physical type from the Arrow types stored as it (leaf_spec.h).
template <typename DType>
struct Gatherer;

template <>
struct Gatherer<encoding::BooleanType> {
  static Status Run(const Array& a, const Slots& s, std::vector<uint8_t>& out,
                    std::vector<uint8_t>&) {
    const uint8_t* bits = a.buffers[1]->data();
    GatherValid(a, s, out,
                [bits](int64_t i) { return static_cast<uint8_t>(bit_util::GetBit(bits, i)); });
    return Status::OK();
  }
};

template <>
struct Gatherer<encoding::Int32Type> {
  static Status Run(const Array& a, const Slots& s, std::vector<int32_t>& out,
                    std::vector<uint8_t>&) {
    switch (a.type->id) {
      case TypeId::kInt8: GatherCast<int32_t, int8_t>(a, s, out); break;
      case TypeId::kInt16: GatherCast<int32_t, int16_t>(a, s, out); break;
      case TypeId::kUInt8: GatherCast<int32_t, uint8_t>(a, s, out); break;
      case TypeId::kUInt16: GatherCast<int32_t, uint16_t>(a, s, out); break;
      case TypeId::kDecimal128: {
        // The low 32 bits of the 128-bit value: the whole value when it has at most the
        // type's 9 digits, as it should (checked: the high bits must only extend the sign).
        const int32_t* words = a.buffers[1]->as<int32_t>();
        bool too_wide = false;
        GatherValid(a, s, out, [&](int64_t i) {
          const int32_t sign = words[i * 4] >> 31;
          too_wide |=
              words[i * 4 + 1] != sign || words[i * 4 + 2] != sign || words[i * 4 + 3] != sign;
          return words[i * 4];
        });
        if (too_wide) return DecimalTooWide(*a.type);
        break;
      }
      default: GatherCast<int32_t, int32_t>(a, s, out); break;  // int32, uint32, date, time
    }
    return Status::OK();
  }
};

template <>
struct Gatherer<encoding::Int64Type> {
  static Status Run(const Array& a, const Slots& s, std::vector<int64_t>& out,
                    std::vector<uint8_t>&) {
    if (a.type->id == TypeId::kDecimal128) {
      const int64_t* words = a.buffers[1]->as<int64_t>();  // low 64 bits: precision <= 18
      bool too_wide = false;
      GatherValid(a, s, out, [&](int64_t i) {
        too_wide |= words[i * 2 + 1] != (words[i * 2] >> 63);
        return words[i * 2];
      });
      if (too_wide) return DecimalTooWide(*a.type);
    } else {
      GatherCast<int64_t, int64_t>(a, s, out);  // int64, uint64, time64, timestamp
    }
    return Status::OK();
  }
};

template <typename T, typename DType>
struct GatherSame {
  static Status Run(const Array& a, const Slots& s, std::vector<T>& out, std::vector<uint8_t>&) {
    GatherCast<T, T>(a, s, out);
    return Status::OK();
  }
};
template <>
struct Gatherer<encoding::FloatType> : GatherSame<float, encoding::FloatType> {};
template <>
struct Gatherer<encoding::DoubleType> : GatherSame<double, encoding::DoubleType> {};

template <>
struct Gatherer<encoding::ByteArrayType> {
  static Status Run(const Array& a, const Slots& s, std::vector<ByteView>& out,
                    std::vector<uint8_t>&) {
    const int64_t* offsets = a.buffers[1]->as<int64_t>();
    const uint8_t* data = a.buffers[2] ? a.buffers[2]->data() : nullptr;
    bool too_long = false, decreasing = false;
    GatherValid(a, s, out, [&](int64_t i) {
      int64_t size = offsets[i + 1] - offsets[i];
      too_long |= size > int64_t{UINT32_MAX};
      decreasing |= size < 0;  // ValidateArrayLayout checks the first and last offsets only
      return ByteView{data + offsets[i], static_cast<uint32_t>(size)};
    });
    if (decreasing) return Status::InvalidArgument("the array's offsets decrease");
    if (too_long) {
      return Status::InvalidArgument("a binary value of 4 GiB or more cannot be stored in Parquet");
    }
    return Status::OK();
  }
};

template <>
struct Gatherer<encoding::FixedLenByteArrayType> {
  static Status Run(const Array& a, const Slots& s, std::vector<ByteView>& out,
                    std::vector<uint8_t>& scratch) {
    const uint8_t* data = a.buffers[1]->data();
    if (a.type->id == TypeId::kDecimal128) {
      // Parquet stores the unscaled value big-endian in the fewest bytes for the precision;
      // Arrow holds it little-endian in 16: the low `width` bytes, reversed.
      const int32_t width = DecimalByteWidth(a.type->precision);
      scratch.resize(static_cast<size_t>(s.n) * width);  // stable: one resize per call
      uint8_t* to = scratch.data();
      bool too_wide = false;
      GatherValid(a, s, out, [&](int64_t i) {
        const uint8_t* from = data + i * 16;
        // The bytes left out must only extend the sign of the ones kept.
        const uint8_t sign = (from[width - 1] & 0x80) ? 0xFF : 0x00;
        for (int32_t b = width; b < 16; ++b) too_wide |= from[b] != sign;
        for (int32_t b = 0; b < width; ++b) to[b] = from[width - 1 - b];
        ByteView v{to, static_cast<uint32_t>(width)};
        to += width;
        return v;
      });
      return too_wide ? DecimalTooWide(*a.type) : Status::OK();
    }
    // fixed_size_binary, and float16 (two little-endian bytes in both formats).
    const auto width =
        static_cast<uint32_t>(a.type->id == TypeId::kFloat16 ? 2 : a.type->byte_width);
    GatherValid(a, s, out, [&](int64_t i) { return ByteView{data + i * width, width}; });
    return Status::OK();
  }
};

template <typename DType>
class TypedChunkWriter final : public ColumnChunkWriter {
 public:
  using Value = typename DType::Value;

  // The chunk's encoders: `options.encoding` for every page when given (NotSupported when it is
  // not defined for the type), else dictionary with PLAIN as the fallback (booleans: PLAIN).
  static Result<std::unique_ptr<ColumnChunkWriter>> Create(const LeafSpec& spec, int16_t max_def,
                                                           int16_t max_rep,
                                                           const ChunkOptions& options) {
    auto plain = encoding::MakeValueEncoder<DType>(options.encoding.value_or(Encoding::kPlain),
                                                   spec.type_length);
    if (!plain.ok()) return plain.status();
    std::unique_ptr<TypedChunkWriter> w(new TypedChunkWriter(spec, max_def, max_rep, options));
    w->plain_ = std::move(*plain);
    w->current_ = w->plain_.get();
    if (options.dictionary && !options.encoding && !encoding::kIsBoolean<DType>) {
      w->dictionary_ = std::make_unique<encoding::DictionaryEncoder<DType>>(spec.type_length);
      w->current_ = w->dictionary_.get();
      w->trying_dictionary_ = true;
    }
    if (options.bloom_filter) {
      if constexpr (encoding::kIsBoolean<DType>) {
        return Status::NotSupported(
            "bloom filters are not defined for BOOLEAN columns (BloomFilter.md hashes PLAIN "
            "values, and PLAIN booleans are bits)");
      } else {
        w->bloom_.emplace(*options.bloom_filter);
      }
    }
    return std::unique_ptr<ColumnChunkWriter>(std::move(w));
  }

  Status Write(const Array& array, int64_t offset, int64_t length) override;
  Status WriteShredded(const ShreddedLeaf& leaf) override;
  Status Finish(FinishedChunk& out, std::deque<std::string>& strings) override;
  int64_t num_rows() const override { return rows_; }
  size_t buffered_bytes() const override {
    return data_bytes_ + (dictionary_ ? dictionary_->dictionary_page_size() : 0);
  }

 private:
  TypedChunkWriter(const LeafSpec& spec, int16_t max_def, int16_t max_rep,
                   const ChunkOptions& options)
      : spec_(spec),
        max_def_(max_def),
        max_rep_(max_rep),
        options_(options),
        page_bounds_(spec.order),
        chunk_bounds_(spec.order),
        order_(spec.order),
        sizes_(max_def, max_rep, spec.physical == PhysicalType::kByteArray),
        geometry_(spec.logical.kind == LogicalType::Kind::kGeometry ||
                  spec.logical.kind == LogicalType::Kind::kGeography),
        geo_(spec.logical.kind == LogicalType::Kind::kGeography) {}

  // How many of the slots (at least one) hold values that fit in about `budget` bytes.
  int64_t SlotsWithinBytes(const Array& a, const Slots& slots, int64_t budget) const;
  size_t PageSize() const {
    const auto level_bytes = static_cast<size_t>(page_entries_) / 8;  // about 1 bit per level
    return current_->EstimatedSize() + (max_def_ > 0 ? level_bytes : 0) +
           (max_rep_ > 0 ? level_bytes : 0);
  }
  // Takes the values of `slots` (and the page's level entries, added by the caller): bounds,
  // encoders, bloom filter; then ends the page when it is full.
  Status AddValues();
  Status EndPage();
  void ChooseFirstPageEncoding();
  // Appends the header of a page with `body_size` uncompressed bytes, then compressed_; in an
  // encrypted chunk, each as its module (`ordinal`: the data page's, in the AADs).
  Status AppendPage(format::PageHeader header, size_t body_size, int32_t ordinal,
                    std::vector<uint8_t>& out);
  void CountPage(PageType type, Encoding encoding) { ++page_counts_[{type, encoding}]; }
  std::optional<std::string> ColumnIndexBytes() const;
  // The statistics of values tracked by `bounds` with `nulls` nulls (the chunk's, or a page's
  // for its header); byte strings kept in `strings`.
  Statistics StatisticsOf(const BoundsTracker<DType>& bounds, int64_t nulls,
                          std::deque<std::string>& strings) const;

  const LeafSpec spec_;
  const int16_t max_def_;
  const int16_t max_rep_;
  const ChunkOptions options_;

  std::unique_ptr<encoding::ValueEncoder<DType>> plain_;            // PLAIN, or options_.encoding
  std::unique_ptr<encoding::DictionaryEncoder<DType>> dictionary_;  // null: not used
  encoding::ValueEncoder<DType>* current_ = nullptr;
  bool dictionary_pages_ = false;            // some data page was dictionary-encoded
  std::optional<BloomFilterBuilder> bloom_;  // only when asked for
  // The first page goes to the dictionary and to PLAIN, until its end chooses one.
  bool trying_dictionary_ = false;

  // The page being filled: its level entries, rows (records) and entries with no value.
  std::vector<int16_t> page_def_;
  std::vector<int16_t> page_rep_;
  int64_t page_entries_ = 0;
  int64_t page_rows_ = 0;
  int64_t page_nulls_ = 0;
  BoundsTracker<DType> page_bounds_;

  // The chunk so far.
  int64_t rows_ = 0;
  int64_t entries_ = 0;
  bool flat_ = true;  // only the flat path wrote: order_ saw every row
  int64_t nulls_ = 0;
  BoundsTracker<DType> chunk_bounds_;
  OrderTracker<DType> order_;
  // One buffer per page: a chunk's pages are never copied into one growing buffer.
  std::vector<std::vector<uint8_t>> data_pages_;
  size_t data_bytes_ = 0;
  int64_t uncompressed_bytes_ = 0;  // headers + uncompressed bodies
  std::vector<format::PageLocation> pages_;
  std::map<std::pair<PageType, Encoding>, int32_t> page_counts_;
  // Column index entries, one per data page.
  std::vector<bool> null_pages_;
  std::vector<std::string> page_mins_, page_maxes_;
  std::vector<int64_t> page_null_counts_, page_nan_counts_;
  bool column_index_possible_ = true;  // false once a float page holds only NaNs
  SizeTracker sizes_;
  const bool geometry_;  // GEOMETRY, GEOGRAPHY: GeospatialStatistics from the values
  GeoTracker geo_;

  // Reused buffers.
  std::vector<Value> values_;
  std::vector<uint8_t> scratch_, body_, compressed_, encrypted_;
};

template <typename DType>
int64_t TypedChunkWriter<DType>::SlotsWithinBytes(const Array& a, const Slots& slots,
                                                  int64_t budget) const {
  if constexpr (std::is_same_v<DType, encoding::ByteArrayType>) {
    const int64_t* offsets = a.buffers[1]->as<int64_t>();
    if (slots.list != nullptr) {
      int64_t k = 0;
      for (int64_t bytes = 0; k < slots.n; ++k) {
        bytes += offsets[slots.list[k] + 1] - offsets[slots.list[k]];
        if (bytes > budget) break;
      }
      return std::max<int64_t>(1, k);
    }
    // The first row whose end passes the budget, by binary search over the monotonic offsets.
    const int64_t* first = offsets + slots.begin + 1;
    const int64_t* end = std::upper_bound(first, first + slots.n, offsets[slots.begin] + budget);
    return std::max<int64_t>(1, end - first);
  } else {
    int64_t width =
        std::is_same_v<DType, encoding::FixedLenByteArrayType> ? spec_.type_length : sizeof(Value);
    return std::clamp<int64_t>(budget / std::max<int64_t>(width, 1), 1, slots.n);
  }
}

template <typename DType>
Status TypedChunkWriter<DType>::Write(const Array& array, int64_t offset, int64_t length) {
  const uint8_t* validity = array.buffers[0] ? array.buffers[0]->data() : nullptr;
  int64_t slot = array.offset + offset;
  const int64_t end = slot + length;
  while (slot < end) {
    int64_t budget = options_.page_bytes - static_cast<int64_t>(PageSize());
    int64_t step = std::min({end - slot, options_.page_rows - page_rows_, kStepRows});
    step = SlotsWithinBytes(array, Slots{slot, step}, std::max<int64_t>(budget, 1));
    if (max_def_ > 0) {
      for (int64_t i = slot; i < slot + step; ++i) {
        page_def_.push_back(validity == nullptr || bit_util::GetBit(validity, i) ? 1 : 0);
      }
    }
    values_.clear();
    PQSIFT_RETURN_IF_ERROR(Gatherer<DType>::Run(array, Slots{slot, step}, values_, scratch_));
    const auto valid = static_cast<int64_t>(values_.size());
    page_nulls_ += step - valid;
    page_rows_ += step;
    page_entries_ += step;
    order_.Update(values_.data(), valid);
    if (max_def_ > 0) order_.UpdateNulls(page_def_.data() + page_entries_ - step, step);
    slot += step;
    PQSIFT_RETURN_IF_ERROR(AddValues());
  }
  return Status::OK();
}

// Records are taken whole, so that every page starts at a record (the offset index's
// first_row_index counts records): as many as fit the page's row and byte limits and
// kStepRows level entries, but at least one.
template <typename DType>
Status TypedChunkWriter<DType>::WriteShredded(const ShreddedLeaf& leaf) {
  flat_ = false;
  const Array& array = *leaf.values;
  const int64_t* entries = leaf.record_entries.data();
  const int64_t* firsts = leaf.record_values.data();
  const int64_t records = leaf.num_records();
  for (int64_t r = 0; r < records;) {
    int64_t last = r + std::min(records - r, options_.page_rows - page_rows_);  // one past
    last =
        std::upper_bound(entries + r + 1, entries + last + 1, entries[r] + kStepRows) - entries - 1;
    const int64_t budget =
        std::max<int64_t>(options_.page_bytes - static_cast<int64_t>(PageSize()), 1);
    const Slots all{0, firsts[last] - firsts[r], leaf.slots.data() + firsts[r]};
    if (all.n > 0) {
      const int64_t fit = SlotsWithinBytes(array, all, budget);
      last = std::upper_bound(firsts + r + 1, firsts + last + 1, firsts[r] + fit) - firsts - 1;
    }
    last = std::max(last, r + 1);
    const int64_t e0 = entries[r], e1 = entries[last];
    if (max_def_ > 0) {
      page_def_.insert(page_def_.end(), leaf.definition_levels.begin() + e0,
                       leaf.definition_levels.begin() + e1);
    }
    if (max_rep_ > 0) {
      page_rep_.insert(page_rep_.end(), leaf.repetition_levels.begin() + e0,
                       leaf.repetition_levels.begin() + e1);
    }
    const Slots taken{0, firsts[last] - firsts[r], leaf.slots.data() + firsts[r]};
    values_.clear();
    PQSIFT_RETURN_IF_ERROR(Gatherer<DType>::Run(array, taken, values_, scratch_));
    page_nulls_ += (e1 - e0) - taken.n;
    page_entries_ += e1 - e0;
    page_rows_ += last - r;
    r = last;
    PQSIFT_RETURN_IF_ERROR(AddValues());
  }
  return Status::OK();
}

// The values just gathered into values_ go to the page's bounds, the encoders and the bloom
// filter; then the page ends when full, and the dictionary stops when too large.
template <typename DType>
Status TypedChunkWriter<DType>::AddValues() {
  const auto valid = static_cast<int64_t>(values_.size());
  if constexpr (std::is_same_v<DType, encoding::ByteArrayType>) {
    int64_t bytes = 0;
    for (const encoding::ByteView& v : values_) bytes += v.size;
    sizes_.AddBytes(bytes);
    if (geometry_) {
      for (const encoding::ByteView& v : values_) geo_.Add({v.data, v.size});
    }
  }
  page_bounds_.Update(values_.data(), valid);
  current_->Put(values_.data(), valid);
  if (trying_dictionary_) plain_->Put(values_.data(), valid);
  if constexpr (!encoding::kIsBoolean<DType>) {
    if (bloom_) bloom_->Add<DType>(values_.data(), valid);
  }
  if (page_rows_ >= options_.page_rows || static_cast<int64_t>(PageSize()) >= options_.page_bytes) {
    PQSIFT_RETURN_IF_ERROR(EndPage());
  }
  if (current_ == dictionary_.get() &&
      static_cast<int64_t>(dictionary_->dictionary_page_size()) > options_.dictionary_page_bytes) {
    // The dictionary stops growing here: its page covers the pages so far, PLAIN the rest.
    PQSIFT_RETURN_IF_ERROR(EndPage());
    current_ = plain_.get();
  }
  return Status::OK();
}

template <typename DType>
Status TypedChunkWriter<DType>::AppendPage(format::PageHeader header, size_t body_size,
                                           int32_t ordinal, std::vector<uint8_t>& out) {
  header.uncompressed_page_size = static_cast<int32_t>(body_size);
  const crypto::ModuleEncryptor* encryptor = options_.encryptor.get();
  std::span<const uint8_t> stored = compressed_;
  if (encryptor != nullptr) {
    // The page is a module; compressed_page_size counts its stored bytes (Encryption.md 5.1).
    const bool dictionary = header.type == PageType::kDictionaryPage;
    encrypted_.clear();
    PQSIFT_RETURN_IF_ERROR(encryptor->Encrypt(
        {dictionary ? crypto::ModuleType::kDictionaryPage : crypto::ModuleType::kDataPage,
         options_.row_group_ordinal, options_.column_ordinal, ordinal},
        compressed_, encrypted_));
    if (encrypted_.size() > static_cast<size_t>(INT32_MAX)) {
      return Status::InvalidArgument("an encrypted page exceeds Parquet's 2 GiB page limit");
    }
    stored = encrypted_;
  }
  header.compressed_page_size = static_cast<int32_t>(stored.size());
  // An encrypted page's integrity is its GCM tag; implementations disagree on whether a CRC
  // covers the stored or the decrypted bytes, so none is written there.
  if (options_.page_checksums && encryptor == nullptr) {
    header.crc =
        static_cast<int32_t>(crc32(0L, compressed_.data(), static_cast<uInt>(compressed_.size())));
  }
  std::string bytes = format::MetadataEncoder().PageHeader(header).Take();
  const size_t start = out.size();
  out.reserve(out.size() + bytes.size() + crypto::kGcmOverhead + stored.size());
  if (encryptor != nullptr) {
    const bool dictionary = header.type == PageType::kDictionaryPage;
    PQSIFT_RETURN_IF_ERROR(
        encryptor->Encrypt({dictionary ? crypto::ModuleType::kDictionaryPageHeader
                                       : crypto::ModuleType::kDataPageHeader,
                            options_.row_group_ordinal, options_.column_ordinal, ordinal},
                           {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, out));
  } else {
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  const size_t header_size = out.size() - start;
  out.insert(out.end(), stored.begin(), stored.end());
  uncompressed_bytes_ += static_cast<int64_t>(header_size + body_size);
  return Status::OK();
}

template <typename DType>
Status TypedChunkWriter<DType>::EndPage() {
  if (page_rows_ == 0) return Status::OK();
  if (page_entries_ > INT32_MAX) {  // a page holds whole rows, and counts its levels in int32
    return Status::InvalidArgument("a row has " + std::to_string(page_entries_) +
                                   " values in one leaf, more than a Parquet page can hold");
  }
  // v1: levels (with their length prefix) and values, compressed together. v2: the levels
  // stay uncompressed in front of the compressed values, their length in the header.
  const bool v2 = options_.data_page_v2;
  body_.clear();
  // Repetition levels first, then definition levels (parquet.thrift DataPageHeaderV2).
  if (max_rep_ > 0 && v2) {
    encoding::AppendLevelsV2(max_rep_, page_rep_.data(), page_entries_, body_);
  } else if (max_rep_ > 0) {
    encoding::AppendLevelsV1(Encoding::kRle, max_rep_, page_rep_.data(), page_entries_, body_);
  }
  const size_t rep_size = body_.size();
  if (max_def_ > 0 && v2) {
    encoding::AppendLevelsV2(max_def_, page_def_.data(), page_entries_, body_);
  } else if (max_def_ > 0) {
    encoding::AppendLevelsV1(Encoding::kRle, max_def_, page_def_.data(), page_entries_, body_);
  }
  const size_t levels_size = v2 ? body_.size() : 0;
  if (trying_dictionary_) ChooseFirstPageEncoding();
  const Encoding page_encoding = current_->encoding();
  current_->FinishInto(body_);
  if (body_.size() > static_cast<size_t>(INT32_MAX)) {
    return Status::InvalidArgument("a data page of " + std::to_string(body_.size()) +
                                   " bytes exceeds Parquet's 2 GiB page limit");
  }
  compressed_.assign(body_.begin(), body_.begin() + static_cast<ptrdiff_t>(levels_size));
  PQSIFT_RETURN_IF_ERROR(compression::Compress(options_.codec, options_.level,
                                               std::span(body_).subspan(levels_size), compressed_));

  format::PageHeader header;
  header.type = v2 ? PageType::kDataPageV2 : PageType::kDataPage;
  if (v2) {
    format::DataPageHeaderV2& data = header.data_page_header_v2.emplace();
    data.num_values = static_cast<int32_t>(page_entries_);
    data.num_nulls = static_cast<int32_t>(page_nulls_);
    data.num_rows = static_cast<int32_t>(page_rows_);
    data.encoding = page_encoding;
    data.repetition_levels_byte_length = static_cast<int32_t>(rep_size);
    data.definition_levels_byte_length = static_cast<int32_t>(levels_size - rep_size);
    data.is_compressed = options_.codec != CompressionCodec::kUncompressed;
  } else {
    format::DataPageHeader& data = header.data_page_header.emplace();
    data.num_values = static_cast<int32_t>(page_entries_);
    data.encoding = page_encoding;
  }
  // Without a page index, the page's statistics go in its header: the only page-level evidence
  // readers then have (pqsift's page-header stage, DuckDB, parquet-mr).
  std::deque<std::string> header_strings;
  if (!options_.page_index) {
    Statistics stats = StatisticsOf(page_bounds_, page_nulls_, header_strings);
    if (v2) {
      header.data_page_header_v2->statistics = stats;
    } else {
      header.data_page_header->statistics = stats;
    }
  }
  const PageType header_type = header.type;
  const size_t page_start = data_bytes_;
  const auto ordinal = static_cast<int32_t>(std::min<size_t>(data_pages_.size(), INT32_MAX));
  PQSIFT_RETURN_IF_ERROR(AppendPage(header, body_.size(), ordinal, data_pages_.emplace_back()));
  data_bytes_ += data_pages_.back().size();
  pages_.push_back(
      {static_cast<int64_t>(page_start), static_cast<int32_t>(data_pages_.back().size()), rows_});
  CountPage(header_type, page_encoding);
  dictionary_pages_ |= page_encoding == Encoding::kRleDictionary;

  // The page's column index entry. A page of only NaNs has no bounds to give, and TYPE_ORDER
  // allows no NaN bounds, so such a chunk gets no column index (parquet.thrift ColumnIndex).
  const bool null_page = page_nulls_ == page_entries_;
  if (!null_page && !page_bounds_.has_bounds()) column_index_possible_ = false;
  null_pages_.push_back(null_page);
  page_null_counts_.push_back(page_nulls_);
  page_nan_counts_.push_back(page_bounds_.nan_count());
  if (page_bounds_.has_bounds()) {
    page_mins_.push_back(page_bounds_.EncodedMin());
    page_maxes_.push_back(page_bounds_.EncodedMax());
  } else {
    page_mins_.emplace_back();
    page_maxes_.emplace_back();
  }

  sizes_.EndPage(max_def_ > 0 ? page_def_.data() : nullptr,
                 max_rep_ > 0 ? page_rep_.data() : nullptr, page_entries_);
  chunk_bounds_.Merge(page_bounds_);
  page_bounds_.Reset();
  rows_ += page_rows_;
  entries_ += page_entries_;
  nulls_ += page_nulls_;
  page_rows_ = 0;
  page_entries_ = 0;
  page_nulls_ = 0;
  page_def_.clear();
  page_rep_.clear();
  return Status::OK();
}

// parquet-mr's rule: the dictionary stays only when the first page with it, dictionary page
// included, is smaller than in PLAIN. Columns of mostly distinct values (ids, timestamps,
// prices) then carry no dictionary page that no data page uses after the fallback, yet every
// sparse read of the chunk must fetch.
template <typename DType>
void TypedChunkWriter<DType>::ChooseFirstPageEncoding() {
  trying_dictionary_ = false;
  if (dictionary_->dictionary_page_size() + dictionary_->EstimatedSize() <
      plain_->EstimatedSize()) {
    std::vector<uint8_t> unused;
    plain_->FinishInto(unused);
    return;
  }
  dictionary_.reset();
  current_ = plain_.get();
}

template <typename DType>
std::optional<std::string> TypedChunkWriter<DType>::ColumnIndexBytes() const {
  if (!options_.page_index || !column_index_possible_ || !spec_.bounds || null_pages_.empty()) {
    return std::nullopt;
  }
  const bool cut = spec_.physical == PhysicalType::kByteArray && options_.truncate_bytes > 0;
  const bool utf8 = spec_.logical.kind == LogicalType::Kind::kString;
  std::vector<std::string> mins(page_mins_.size()), maxes(page_maxes_.size());
  for (size_t i = 0; i < mins.size(); ++i) {
    mins[i] =
        cut ? TruncateLowerBound(page_mins_[i], options_.truncate_bytes, utf8) : page_mins_[i];
    std::optional<std::string> max =
        cut ? TruncateUpperBound(page_maxes_[i], options_.truncate_bytes, utf8) : std::nullopt;
    // Without a short upper bound, the page keeps its whole maximum (every entry is required).
    maxes[i] = max ? *max : page_maxes_[i];
  }
  // Ascending (descending) when the bounds of the non-null pages never decrease (increase),
  // judged on the bounds as written.
  bool ascending = true, descending = true;
  std::optional<size_t> previous;
  for (size_t i = 0; i < mins.size(); ++i) {
    if (null_pages_[i]) continue;
    if (previous) {
      int min_order = CompareEncodedBounds(spec_.order, spec_.physical, mins[*previous], mins[i]);
      int max_order = CompareEncodedBounds(spec_.order, spec_.physical, maxes[*previous], maxes[i]);
      ascending &= min_order <= 0 && max_order <= 0;
      descending &= min_order >= 0 && max_order >= 0;
    }
    previous = i;
  }
  format::ColumnIndex index;
  index.null_pages = null_pages_;
  index.min_values.assign(mins.begin(), mins.end());
  index.max_values.assign(maxes.begin(), maxes.end());
  index.boundary_order = ascending    ? BoundaryOrder::kAscending
                         : descending ? BoundaryOrder::kDescending
                                      : BoundaryOrder::kUnordered;
  index.null_counts = page_null_counts_;
  index.definition_level_histograms = sizes_.page_def_histograms();
  index.repetition_level_histograms = sizes_.page_rep_histograms();
  if (spec_.order == SortOrder::kFloat || spec_.order == SortOrder::kFloat16) {
    index.nan_counts = page_nan_counts_;
  }
  return format::MetadataEncoder().ColumnIndex(index).Take();
}

template <typename DType>
Statistics TypedChunkWriter<DType>::StatisticsOf(const BoundsTracker<DType>& bounds, int64_t nulls,
                                                 std::deque<std::string>& strings) const {
  Statistics s;
  s.null_count = nulls;
  if (spec_.order == SortOrder::kFloat || spec_.order == SortOrder::kFloat16) {
    s.nan_count = bounds.nan_count();
  }
  if (!bounds.has_bounds() || !spec_.bounds) return s;
  std::string min = bounds.EncodedMin();
  std::optional<std::string> max = bounds.EncodedMax();
  bool min_exact = true, max_exact = true;
  if (spec_.physical == PhysicalType::kByteArray && options_.truncate_bytes > 0) {
    const bool utf8 = spec_.logical.kind == LogicalType::Kind::kString;
    const auto limit = static_cast<size_t>(options_.truncate_bytes);
    min_exact = min.size() <= limit;
    max_exact = max->size() <= limit;
    min = TruncateLowerBound(min, limit, utf8);
    max = TruncateUpperBound(*max, limit, utf8);
  }
  s.min_value = strings.emplace_back(std::move(min));
  s.is_min_value_exact = min_exact;
  if (max) {
    s.max_value = strings.emplace_back(std::move(*max));
    s.is_max_value_exact = max_exact;
  }
  if (spec_.legacy_min_max) {
    s.min = s.min_value;
    s.max = s.max_value;
  }
  return s;
}

template <typename DType>
Status TypedChunkWriter<DType>::Finish(FinishedChunk& out, std::deque<std::string>& strings) {
  PQSIFT_RETURN_IF_ERROR(EndPage());
  out.dictionary_page.clear();
  if (dictionary_pages_) {
    body_.clear();
    dictionary_->AppendDictionaryPage(body_);
    compressed_.clear();
    PQSIFT_RETURN_IF_ERROR(
        compression::Compress(options_.codec, options_.level, body_, compressed_));
    format::PageHeader header;
    header.type = PageType::kDictionaryPage;
    format::DictionaryPageHeader& dict = header.dictionary_page_header.emplace();
    dict.num_values = static_cast<int32_t>(dictionary_->num_entries());
    dict.encoding = Encoding::kPlain;
    PQSIFT_RETURN_IF_ERROR(AppendPage(header, body_.size(), 0, out.dictionary_page));
    CountPage(PageType::kDictionaryPage, Encoding::kPlain);
  }
  const auto dictionary_size = static_cast<int64_t>(out.dictionary_page.size());

  ColumnMetaData& m = out.metadata;
  m = ColumnMetaData{};
  m.type = spec_.physical;
  m.encoding_stats.emplace();
  for (const auto& [key, count] : page_counts_) {
    if (std::find(m.encodings.begin(), m.encodings.end(), key.second) == m.encodings.end()) {
      m.encodings.push_back(key.second);
    }
    m.encoding_stats->push_back({key.first, key.second, count});
  }
  if (max_def_ > 0 || max_rep_ > 0) m.encodings.push_back(Encoding::kRle);  // the levels
  m.codec = options_.codec;
  m.num_values = entries_;
  m.total_uncompressed_size = uncompressed_bytes_;
  m.total_compressed_size = dictionary_size + static_cast<int64_t>(data_bytes_);
  m.data_page_offset = dictionary_size;
  if (dictionary_size > 0) m.dictionary_page_offset = 0;
  m.statistics = StatisticsOf(chunk_bounds_, nulls_, strings);
  SizeStatistics size = sizes_.Chunk();
  if (size.unencoded_byte_array_data_bytes || !size.definition_level_histogram.empty() ||
      !size.repetition_level_histogram.empty()) {
    m.size_statistics = std::move(size);  // none for a required flat non-byte-array leaf
  }
  if (geometry_) m.geospatial_statistics = geo_.Finish();
  out.page_unencoded_bytes = sizes_.page_unencoded_bytes();

  out.pages = std::move(pages_);
  for (format::PageLocation& p : out.pages) p.offset += dictionary_size;
  out.column_index = ColumnIndexBytes();
  out.sorted = flat_ ? order_.Sorting() : std::nullopt;
  out.data_pages = std::move(data_pages_);
  out.bloom_filter.clear();
  if (bloom_) bloom_->Finish(out.bloom_filter);
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<ColumnChunkWriter>> ColumnChunkWriter::Make(const LeafSpec& spec,
                                                                   int16_t max_def, int16_t max_rep,
                                                                   const ChunkOptions& options) {
  switch (spec.physical) {
    case PhysicalType::kBoolean:
      return TypedChunkWriter<encoding::BooleanType>::Create(spec, max_def, max_rep, options);
    case PhysicalType::kInt32:
      return TypedChunkWriter<encoding::Int32Type>::Create(spec, max_def, max_rep, options);
    case PhysicalType::kInt64:
      return TypedChunkWriter<encoding::Int64Type>::Create(spec, max_def, max_rep, options);
    case PhysicalType::kFloat:
      return TypedChunkWriter<encoding::FloatType>::Create(spec, max_def, max_rep, options);
    case PhysicalType::kDouble:
      return TypedChunkWriter<encoding::DoubleType>::Create(spec, max_def, max_rep, options);
    case PhysicalType::kByteArray:
      return TypedChunkWriter<encoding::ByteArrayType>::Create(spec, max_def, max_rep, options);
    default:
      return TypedChunkWriter<encoding::FixedLenByteArrayType>::Create(spec, max_def, max_rep,
                                                                       options);
  }
}

}  // namespace pqsift::write

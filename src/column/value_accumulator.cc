// The typed readers behind ValueAccumulator: Decoders<DType> picks the decoder per page
// encoding; a Sink turns decoded physical values into the Arrow representation. The factory at
// the bottom is the one switch from (physical type, Arrow type) to a template instantiation.
#include "column/value_accumulator.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "encoding/bit_util.h"
#include "encoding/dictionary_decoder.h"
#include "encoding/value_decoder.h"

namespace pqsift::column {
namespace {

using encoding::ByteView;
using encoding::ValueDecoder;

// Grows `buffer` to `size` bytes, at least doubling its capacity so appends stay amortised O(1).
void GrowTo(ArrowBuffer& buffer, size_t size) {
  if (size > buffer.capacity()) buffer.Reserve(std::max(size, buffer.capacity() * 2));
  buffer.Resize(size);
}

// Moves the values of `values[0, n)` whose `keep` byte is nonzero to the front, in order;
// returns how many. Without `keep`, all n.
template <typename T>
int64_t KeepOnly(T* values, int64_t n, const uint8_t* keep) {
  if (keep == nullptr) return n;
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) {
    values[kept] = values[i];
    kept += keep[i] != 0 ? 1 : 0;
  }
  return kept;
}

// A decoded dictionary as other readers of the chunk adopt it (DecodedDictionary).
template <typename DType>
struct SharedDictionary final : DecodedDictionary {
  std::unique_ptr<encoding::DictionaryDecoder<DType>> decoder;  // never started: only Share()d
};

template <typename DType>
class Decoders {
 public:
  explicit Decoders(int32_t type_length) : type_length_(type_length) {}

  Status SetDictionary(std::span<const uint8_t> page, int64_t num_values) {
    if (dictionary_) return Status::Corruption("a second dictionary page in one column chunk");
    PQSIFT_ASSIGN_OR_RETURN(
        dictionary_, encoding::DictionaryDecoder<DType>::Make(page, num_values, type_length_));
    return Status::OK();
  }

  std::shared_ptr<const DecodedDictionary> Shared() const {
    if (!dictionary_) return nullptr;
    auto shared = std::make_shared<SharedDictionary<DType>>();
    shared->decoder = dictionary_->Share();
    return shared;
  }
  Status Adopt(const DecodedDictionary& dictionary) {
    if (dictionary_) return Status::Corruption("a second dictionary page in one column chunk");
    const auto* shared = dynamic_cast<const SharedDictionary<DType>*>(&dictionary);
    if (shared == nullptr) return Status::Internal("a dictionary of another column type");
    dictionary_ = shared->decoder->Share();
    return Status::OK();
  }

  Status Start(Encoding encoding, std::span<const uint8_t> data, int64_t num_values,
               encoding::ByteSupply* more) {
    if (encoding == Encoding::kPlainDictionary || encoding == Encoding::kRleDictionary) {
      if (!dictionary_) {
        return Status::Corruption("a dictionary-encoded page without a dictionary page");
      }
      current_ = dictionary_.get();
    } else {
      auto index = static_cast<size_t>(encoding);
      if (index >= by_encoding_.size()) {
        return Status::NotSupported("page encoding " + EncodingName(encoding));
      }
      if (!by_encoding_[index]) {
        PQSIFT_ASSIGN_OR_RETURN(by_encoding_[index],
                                encoding::MakeValueDecoder<DType>(encoding, type_length_));
      }
      current_ = by_encoding_[index].get();
    }
    return more != nullptr ? current_->SetArrivingData(data, num_values, more)
                           : current_->SetData(data, num_values);
  }

  ValueDecoder<DType>& current() { return *current_; }
  const encoding::DictionaryDecoder<DType>* dictionary() const { return dictionary_.get(); }
  // The current page's dictionary decoder; null when the page is not dictionary-encoded.
  encoding::DictionaryDecoder<DType>* current_dictionary() {
    return current_ != nullptr && current_ == dictionary_.get() ? dictionary_.get() : nullptr;
  }

 private:
  int32_t type_length_;
  std::unique_ptr<encoding::DictionaryDecoder<DType>> dictionary_;
  std::array<std::unique_ptr<ValueDecoder<DType>>, 10> by_encoding_;
  ValueDecoder<DType>* current_ = nullptr;
};

// A dictionary's entries as a value decoder, so the sinks convert the dictionary to Arrow with the
// same code that converts the values of dictionary-encoded pages: in order, or (`picked`) those
// at the given indices, checked against the dictionary when they were decoded (a batch of
// dictionary indices turned into values).
template <typename DType>
class EntriesDecoder final : public ValueDecoder<DType> {
 public:
  using Value = typename DType::Value;
  explicit EntriesDecoder(std::span<const Value> entries, std::span<const int32_t> picked = {},
                          bool picking = false)
      : entries_(entries), picked_(picked), picking_(picking) {}
  Status SetData(std::span<const uint8_t>, int64_t) override {
    return Status::Internal("dictionary entries take no page data");
  }
  Status Decode(Value* out, int64_t n) override {
    PQSIFT_RETURN_IF_ERROR(Check(n));
    if (picking_) {
      for (int64_t i = 0; i < n; ++i) {
        out[i] = entries_[static_cast<size_t>(picked_[static_cast<size_t>(next_ + i)])];
      }
    } else {
      std::copy_n(entries_.begin() + next_, n, out);
    }
    next_ += n;
    return Status::OK();
  }
  Status Skip(int64_t n) override {
    PQSIFT_RETURN_IF_ERROR(Check(n));
    next_ += n;
    return Status::OK();
  }
  int64_t values_left() const override {
    return static_cast<int64_t>(picking_ ? picked_.size() : entries_.size()) - next_;
  }

 private:
  Status Check(int64_t n) const {
    if (n < 0 || n > values_left()) {
      return Status::Corruption("asked for " + std::to_string(n) + " of " +
                                std::to_string(values_left()) + " dictionary entries left");
    }
    return Status::OK();
  }
  std::span<const Value> entries_;
  std::span<const int32_t> picked_;
  bool picking_;
  int64_t next_ = 0;
};

// ---- sinks: decoded physical values -> Arrow buffers ----

// Values whose bits are already the Arrow value (int32 -> int32 or uint32 or date32, ...):
// decoded straight into the output buffer.
template <typename DType>
class DirectSink {
 public:
  using Value = typename DType::Value;
  // Appends the next n values (those `keep` marks, when given); returns how many.
  Result<int64_t> Append(ValueDecoder<DType>& d, int64_t n, const uint8_t* keep) {
    if (keep == nullptr) {
      size_t old = values_->size();
      GrowTo(*values_, old + static_cast<size_t>(n) * sizeof(Value));
      PQSIFT_RETURN_IF_ERROR(d.Decode(reinterpret_cast<Value*>(values_->data() + old), n));
      return n;
    }
    // Through scratch space a batch at a time: the output grows by the kept values only.
    int64_t appended = 0;
    for (int64_t done = 0; done < n;) {
      const int64_t batch = std::min(kBatch, n - done);
      scratch_.resize(static_cast<size_t>(batch));
      PQSIFT_RETURN_IF_ERROR(d.Decode(scratch_.data(), batch));
      const int64_t kept = KeepOnly(scratch_.data(), batch, keep + done);
      const size_t old = values_->size();
      GrowTo(*values_, old + static_cast<size_t>(kept) * sizeof(Value));
      if (kept > 0) {
        std::memcpy(values_->data() + old, scratch_.data(),
                    static_cast<size_t>(kept) * sizeof(Value));
      }
      appended += kept;
      done += batch;
    }
    return appended;
  }
  std::vector<std::shared_ptr<ArrowBuffer>> Finish() {
    std::vector<std::shared_ptr<ArrowBuffer>> out = {nullptr, std::move(values_)};
    values_ = std::make_shared<ArrowBuffer>();
    return out;
  }

 private:
  static constexpr int64_t kBatch = 1024;
  std::vector<Value> scratch_;
  std::shared_ptr<ArrowBuffer> values_ = std::make_shared<ArrowBuffer>();
};

// Values converted one by one (narrowing integers, INT96 to microseconds, integers to
// decimal128): decoded into scratch space, then converted into the output buffer.
template <typename DType, typename Out, typename Convert>
class ConvertSink {
 public:
  using Value = typename DType::Value;
  explicit ConvertSink(Convert convert = {}) : convert_(convert) {}
  Result<int64_t> Append(ValueDecoder<DType>& d, int64_t n, const uint8_t* keep) {
    scratch_.resize(static_cast<size_t>(n));
    PQSIFT_RETURN_IF_ERROR(d.Decode(scratch_.data(), n));
    n = KeepOnly(scratch_.data(), n, keep);
    size_t old = values_->size();
    GrowTo(*values_, old + static_cast<size_t>(n) * sizeof(Out));
    Out* out = reinterpret_cast<Out*>(values_->data() + old);
    for (int64_t i = 0; i < n; ++i) PQSIFT_RETURN_IF_ERROR(convert_(scratch_[i], out[i]));
    return n;
  }
  std::vector<std::shared_ptr<ArrowBuffer>> Finish() {
    std::vector<std::shared_ptr<ArrowBuffer>> out = {nullptr, std::move(values_)};
    values_ = std::make_shared<ArrowBuffer>();
    return out;
  }

 private:
  Convert convert_;
  std::vector<Value> scratch_;
  std::shared_ptr<ArrowBuffer> values_ = std::make_shared<ArrowBuffer>();
};

// Booleans: one byte per decoded value, packed into Arrow's LSB-first bitmap.
class BoolSink {
 public:
  Result<int64_t> Append(ValueDecoder<encoding::BooleanType>& d, int64_t n, const uint8_t* keep) {
    scratch_.resize(static_cast<size_t>(n));
    PQSIFT_RETURN_IF_ERROR(d.Decode(scratch_.data(), n));
    n = KeepOnly(scratch_.data(), n, keep);
    size_t bytes = static_cast<size_t>((length_ + n + 7) / 8);
    size_t old = bits_->size();
    GrowTo(*bits_, bytes);
    if (bytes > old) std::memset(bits_->data() + old, 0, bytes - old);  // none kept: no memory
    uint8_t* bits = bits_->data();
    for (int64_t i = 0; i < n; ++i) {
      int64_t bit = length_ + i;
      bits[bit >> 3] |= static_cast<uint8_t>((scratch_[i] & 1) << (bit & 7));
    }
    length_ += n;
    return n;
  }
  std::vector<std::shared_ptr<ArrowBuffer>> Finish() {
    std::vector<std::shared_ptr<ArrowBuffer>> out = {nullptr, std::move(bits_)};
    bits_ = std::make_shared<ArrowBuffer>();
    length_ = 0;
    return out;
  }

 private:
  std::vector<uint8_t> scratch_;
  std::shared_ptr<ArrowBuffer> bits_ = std::make_shared<ArrowBuffer>();
  int64_t length_ = 0;
};

// Byte arrays to large_utf8 / large_binary: int64 offsets and the bytes, copied out of the page.
// Values are decoded and copied a batch at a time: the views take kBatch entries, not 16 bytes
// per value of a slice, and the bytes a batch's views point at are still in cache when they are
// copied.
template <typename DType>
class BinarySink {
 public:
  static constexpr int64_t kBatch = 1024;

  Result<int64_t> Append(ValueDecoder<DType>& d, int64_t n, const uint8_t* keep) {
    if (d.DecodesBinary()) return AppendDirect(d, n, keep);
    const size_t old_offsets = offsets_->size();
    if (keep == nullptr) GrowTo(*offsets_, old_offsets + static_cast<size_t>(n) * sizeof(int64_t));
    int64_t appended = 0;
    for (int64_t done = 0; done < n;) {
      const int64_t batch = std::min(kBatch, n - done);
      scratch_.resize(static_cast<size_t>(batch));
      PQSIFT_RETURN_IF_ERROR(d.Decode(scratch_.data(), batch));
      // Only the kept views are copied out of the page.
      const int64_t kept =
          KeepOnly(scratch_.data(), batch, keep == nullptr ? nullptr : keep + done);
      if (keep != nullptr) {
        GrowTo(*offsets_, old_offsets + static_cast<size_t>(appended + kept) * sizeof(int64_t));
      }
      size_t total = 0;
      for (int64_t i = 0; i < kept; ++i) total += scratch_[i].size;
      size_t pos = data_->size();
      if (done == 0 && batch < n) {
        // Room for the whole append at the first batch's bytes per value read: one allocation
        // instead of a doubling copy per power of two.
        const size_t expected = total * static_cast<size_t>(n) / static_cast<size_t>(batch);
        if (pos + expected > data_->capacity()) data_->Reserve(pos + expected);
      }
      GrowTo(*data_, pos + total);
      uint8_t* data = data_->data();
      auto* offsets = reinterpret_cast<int64_t*>(offsets_->data() + old_offsets) + appended;
      for (int64_t i = 0; i < kept; ++i) {
        const ByteView& v = scratch_[i];
        encoding::CopyShort(data + pos, v.data, v.size);
        pos += v.size;
        offsets[i] = static_cast<int64_t>(pos);
      }
      appended += kept;
      done += batch;
    }
    return appended;
  }
  // From a decoder whose values lie in the page as they are (PLAIN): the kept values copied from
  // the page into the data buffer in one pass (ValueDecoder::DecodeBinary), no views.
  Result<int64_t> AppendDirect(ValueDecoder<DType>& d, int64_t n, const uint8_t* keep) {
    const size_t old_offsets = offsets_->size();
    GrowTo(*offsets_, old_offsets + static_cast<size_t>(n) * sizeof(int64_t));
    auto* ends = reinterpret_cast<int64_t*>(offsets_->data() + old_offsets);
    int64_t appended = 0;
    for (int64_t done = 0;;) {
      encoding::BinaryAppend out{data_->data(), data_->size(), data_->capacity(), ends + appended};
      out.keep = keep == nullptr ? nullptr : keep + done;
      PQSIFT_ASSIGN_OR_RETURN(const int64_t got, d.DecodeBinary(n - done, &out));
      data_->Resize(out.used);
      appended += out.appended;
      done += got;
      if (done == n) break;
      // The next value did not fit: room for it, and for the rest to keep at the page's bytes per
      // value left (at most the bytes it has left), growing by half at least.
      const auto values_left = static_cast<size_t>(std::max<int64_t>(d.values_left(), 1));
      const size_t per_value = out.bytes_left / values_left;  // with its 4-byte length
      const auto to_keep = static_cast<size_t>(
          keep == nullptr ? n - done
                          : std::count_if(keep + done, keep + n, [](uint8_t k) { return k != 0; }));
      const size_t rest = (per_value - std::min<size_t>(per_value, 4)) * to_keep;
      const size_t want = out.used + std::max(out.next_size, rest);
      data_->Reserve(std::max(want, data_->capacity() + data_->capacity() / 2));
    }
    offsets_->Resize(old_offsets + static_cast<size_t>(appended) * sizeof(int64_t));
    return appended;
  }

  std::vector<std::shared_ptr<ArrowBuffer>> Finish() {
    std::vector<std::shared_ptr<ArrowBuffer>> out = {nullptr, std::move(offsets_),
                                                     std::move(data_)};
    offsets_ = NewOffsets();
    data_ = std::make_shared<ArrowBuffer>();
    return out;
  }

 private:
  static std::shared_ptr<ArrowBuffer> NewOffsets() {
    auto b = std::make_shared<ArrowBuffer>();
    b->Resize(sizeof(int64_t));
    *b->as<int64_t>() = 0;
    return b;
  }
  std::vector<ByteView> scratch_;
  std::shared_ptr<ArrowBuffer> offsets_ = NewOffsets();
  std::shared_ptr<ArrowBuffer> data_ = std::make_shared<ArrowBuffer>();
};

// ---- conversions ----

template <typename Out>
struct Narrow {
  template <typename In>
  Status operator()(In in, Out& out) const {
    out = static_cast<Out>(in);  // the annotation promises the value fits; wrap like others
    return Status::OK();
  }
};

// INT96: nanoseconds of the day (8 bytes) and a Julian day (4 bytes), to microseconds since
// the epoch (floor division, so times before 1970 round towards the past like every other
// unit conversion), in wrapping two's-complement int64 arithmetic: Spark's, the writer INT96
// survives for. Spark writes micros + 2440588 days, also wrapping, so its timestamps after
// about year 287,500 (up to the int64 limit in year 294,247) reach the file as a negative
// Julian day and negative nanoseconds, and only the wrap reads them back as Spark's values
// (Spark writes whole microseconds, so its truncating division agrees with the floor here).
// A value whose exact result fits int64 is unchanged by the wrap; one outside it is no date
// any writer stores, and wraps like Spark's reading rather than failing the scan.
struct Int96ToMicros {
  Status operator()(const encoding::Int96& in, int64_t& out) const {
    auto nanos = static_cast<int64_t>(static_cast<uint64_t>(in.words[0]) |
                                      static_cast<uint64_t>(in.words[1]) << 32);
    auto julian_day = static_cast<int64_t>(static_cast<int32_t>(in.words[2]));
    constexpr int64_t kJulianEpochDay = 2440588;  // 1970-01-01
    constexpr uint64_t kMicrosPerDay = 86400000000;
    int64_t micros_of_day = nanos / 1000 - (nanos % 1000 < 0 ? 1 : 0);
    // Unsigned arithmetic wraps (modulo 2^64); the conversion back is two's complement (C++20).
    out = static_cast<int64_t>(static_cast<uint64_t>(julian_day - kJulianEpochDay) * kMicrosPerDay +
                               static_cast<uint64_t>(micros_of_day));
    return Status::OK();
  }
};

struct Decimal128 {
  uint64_t low;
  int64_t high;
};

struct IntToDecimal128 {
  template <typename In>
  Status operator()(In in, Decimal128& out) const {
    out.low = static_cast<uint64_t>(static_cast<int64_t>(in));
    out.high = in < 0 ? -1 : 0;
    return Status::OK();
  }
};

// Big-endian two's complement bytes (BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY decimals) to decimal128.
struct BytesToDecimal128 {
  Status operator()(const ByteView& in, Decimal128& out) const {
    const uint8_t* p = in.data;
    size_t n = in.size;
    bool negative = n > 0 && (p[0] & 0x80);
    uint8_t sign_byte = negative ? 0xff : 0x00;
    // Leading bytes beyond 16 must be pure sign extension for the value to fit.
    while (n > 16) {
      if (*p != sign_byte) return Status::Corruption("a DECIMAL value does not fit 128 bits");
      ++p;
      --n;
    }
    uint8_t le[16];
    std::memset(le, sign_byte, sizeof le);
    for (size_t i = 0; i < n; ++i) le[i] = p[n - 1 - i];
    std::memcpy(&out, le, sizeof le);
    return Status::OK();
  }
};

// Fixed-size values copied as bytes (fixed_size_binary, float16), checking each width.
class FixedBinarySink {
 public:
  explicit FixedBinarySink(int32_t width) : width_(width) {}
  Result<int64_t> Append(ValueDecoder<encoding::FixedLenByteArrayType>& d, int64_t n,
                         const uint8_t* keep) {
    scratch_.resize(static_cast<size_t>(n));
    PQSIFT_RETURN_IF_ERROR(d.Decode(scratch_.data(), n));
    n = KeepOnly(scratch_.data(), n, keep);
    scratch_.resize(static_cast<size_t>(n));
    size_t old = values_->size();
    GrowTo(*values_, old + static_cast<size_t>(n) * static_cast<size_t>(width_));
    uint8_t* out = values_->data() + old;
    for (const ByteView& v : scratch_) {
      if (v.size != static_cast<uint32_t>(width_)) {
        return Status::Corruption("a FIXED_LEN_BYTE_ARRAY value of " + std::to_string(v.size) +
                                  " bytes in a column of width " + std::to_string(width_));
      }
      if (width_ != 0) std::memcpy(out, v.data, static_cast<size_t>(width_));
      out += width_;
    }
    return n;
  }
  std::vector<std::shared_ptr<ArrowBuffer>> Finish() {
    std::vector<std::shared_ptr<ArrowBuffer>> out = {nullptr, std::move(values_)};
    values_ = std::make_shared<ArrowBuffer>();
    return out;
  }

 private:
  int32_t width_;
  std::vector<ByteView> scratch_;
  std::shared_ptr<ArrowBuffer> values_ = std::make_shared<ArrowBuffer>();
};

// ---- the accumulator: decoders + sink ----

template <typename DType, typename Sink>
class TypedAccumulator final : public ValueAccumulator {
 public:
  TypedAccumulator(std::shared_ptr<const DataType> type, int32_t type_length, Sink sink)
      : type_(std::move(type)), decoders_(type_length), sink_(std::move(sink)) {}

  Status SetDictionary(std::span<const uint8_t> page, int64_t num_values) override {
    return decoders_.SetDictionary(page, num_values);
  }
  std::shared_ptr<const DecodedDictionary> dictionary() const override {
    return decoders_.Shared();
  }
  Status AdoptDictionary(std::shared_ptr<const DecodedDictionary> dictionary) override {
    if (!dictionary) return Status::Internal("no dictionary to adopt");
    return decoders_.Adopt(*dictionary);
  }
  Status StartPage(Encoding encoding, std::span<const uint8_t> data, int64_t num_values,
                   encoding::ByteSupply* more) override {
    return decoders_.Start(encoding, data, num_values, more);
  }
  Status Read(int64_t n, const uint8_t* keep, int64_t* appended) override {
    int64_t kept = 0;
    if (n > 0) {
      encoding::DictionaryDecoder<DType>* indexed = decoders_.current_dictionary();
      if (keep_indices_ && indexed != nullptr && (length_ == 0 || holding_indices_) &&
          indexed->dictionary().size() <= kMaxIndexedDictionary) {
        PQSIFT_ASSIGN_OR_RETURN(kept, AppendIndices(*indexed, n, keep));
      } else {
        PQSIFT_RETURN_IF_ERROR(PickHeldIndices());
        PQSIFT_ASSIGN_OR_RETURN(kept, sink_.Append(decoders_.current(), n, keep));
      }
    }
    length_ += kept;
    if (appended != nullptr) *appended = kept;
    return Status::OK();
  }
  void KeepDictionaryIndices(bool keep) override { keep_indices_ = keep; }
  Status ReadDictionary() override {
    PQSIFT_RETURN_IF_ERROR(PickHeldIndices());
    const auto* dictionary = decoders_.dictionary();
    if (dictionary == nullptr) return Status::Corruption("the column chunk has no dictionary");
    EntriesDecoder<DType> entries(dictionary->dictionary());
    int64_t n = entries.values_left();
    if (n == 0) return Status::OK();
    PQSIFT_RETURN_IF_ERROR(sink_.Append(entries, n, nullptr).status());
    length_ += n;
    return Status::OK();
  }
  Status Skip(int64_t n) override { return n == 0 ? Status::OK() : decoders_.current().Skip(n); }
  std::shared_ptr<Array> Finish() override {
    auto array = std::make_shared<Array>();
    array->length = length_;
    if (holding_indices_) {
      array->type = Dictionary(type_);
      array->buffers = {nullptr, std::move(indices_)};
      array->dictionary = dictionary_values_;
      indices_ = std::make_shared<ArrowBuffer>();
      holding_indices_ = false;
    } else {
      array->type = type_;
      array->buffers = sink_.Finish();
    }
    length_ = 0;
    return array;
  }

 private:
  // Appends the dictionary indices of the next n values (those `keep` marks): the batch becomes
  // a dictionary array over the chunk's dictionary, converted once (dictionary_values_).
  Result<int64_t> AppendIndices(encoding::DictionaryDecoder<DType>& decoder, int64_t n,
                                const uint8_t* keep) {
    if (dictionary_values_ == nullptr) {
      // The batch is empty (length_ == 0): the sink holds nothing but the entries it converts.
      EntriesDecoder<DType> entries(decoder.dictionary());
      PQSIFT_RETURN_IF_ERROR(sink_.Append(entries, entries.values_left(), nullptr).status());
      auto values = std::make_shared<Array>();
      values->type = type_;
      values->length = static_cast<int64_t>(decoder.dictionary().size());
      values->buffers = sink_.Finish();
      dictionary_values_ = std::move(values);
    }
    const size_t old = indices_->size() / sizeof(int32_t);
    GrowTo(*indices_, (old + static_cast<size_t>(n)) * sizeof(int32_t));
    int32_t* out = indices_->as<int32_t>() + old;
    PQSIFT_RETURN_IF_ERROR(decoder.DecodeIndices(out, n));
    const int64_t kept = KeepOnly(out, n, keep);
    indices_->Resize((old + static_cast<size_t>(kept)) * sizeof(int32_t));
    holding_indices_ = true;
    return kept;
  }

  // A batch of indices meeting a page that is not dictionary-encoded (or a ReadDictionary): the
  // indices held so far become values, and the batch goes on as values.
  Status PickHeldIndices() {
    if (!holding_indices_) return Status::OK();
    std::span<const int32_t> indices(indices_->as<int32_t>(), indices_->size() / sizeof(int32_t));
    EntriesDecoder<DType> picked(decoders_.dictionary()->dictionary(), indices, true);
    PQSIFT_RETURN_IF_ERROR(
        sink_.Append(picked, static_cast<int64_t>(indices.size()), nullptr).status());
    indices_->Resize(0);
    holding_indices_ = false;
    return Status::OK();
  }

  // Larger dictionaries are read as values: each reader converts its chunk's dictionary once,
  // and a filter is worth evaluating per entry only when entries are fewer than rows.
  static constexpr size_t kMaxIndexedDictionary = size_t{1} << 14;

  std::shared_ptr<const DataType> type_;
  Decoders<DType> decoders_;
  Sink sink_;
  int64_t length_ = 0;
  // KeepDictionaryIndices: a batch that starts on a dictionary-encoded page holds indices.
  bool keep_indices_ = false;
  bool holding_indices_ = false;
  std::shared_ptr<ArrowBuffer> indices_ = std::make_shared<ArrowBuffer>();
  std::shared_ptr<Array> dictionary_values_;  // the chunk's dictionary in type_, converted once
};

template <typename DType, typename Sink>
std::unique_ptr<ValueAccumulator> Make(std::shared_ptr<const DataType> type, int32_t type_length,
                                       Sink sink = {}) {
  return std::make_unique<TypedAccumulator<DType, Sink>>(std::move(type), type_length,
                                                         std::move(sink));
}

}  // namespace

Result<std::unique_ptr<ValueAccumulator>> MakeValueAccumulator(
    const ColumnDescriptor& column, std::shared_ptr<const DataType> type) {
  using namespace encoding;  // NOLINT(google-build-using-namespace): the type tags
  const int32_t width = column.type_length;
  const TypeId id = type->id;
  switch (column.physical_type) {
    case PhysicalType::kBoolean: return Make<BooleanType>(std::move(type), width, BoolSink{});
    case PhysicalType::kInt32:
      switch (id) {
        case TypeId::kInt8:
          return Make<Int32Type>(type, width, ConvertSink<Int32Type, int8_t, Narrow<int8_t>>{});
        case TypeId::kUInt8:
          return Make<Int32Type>(type, width, ConvertSink<Int32Type, uint8_t, Narrow<uint8_t>>{});
        case TypeId::kInt16:
          return Make<Int32Type>(type, width, ConvertSink<Int32Type, int16_t, Narrow<int16_t>>{});
        case TypeId::kUInt16:
          return Make<Int32Type>(type, width, ConvertSink<Int32Type, uint16_t, Narrow<uint16_t>>{});
        case TypeId::kDecimal128:
          return Make<Int32Type>(type, width,
                                 ConvertSink<Int32Type, Decimal128, IntToDecimal128>{});
        default: return Make<Int32Type>(type, width, DirectSink<Int32Type>{});
      }
    case PhysicalType::kInt64:
      if (id == TypeId::kDecimal128) {
        return Make<Int64Type>(type, width, ConvertSink<Int64Type, Decimal128, IntToDecimal128>{});
      }
      return Make<Int64Type>(type, width, DirectSink<Int64Type>{});
    case PhysicalType::kInt96:
      return Make<Int96Type>(type, width, ConvertSink<Int96Type, int64_t, Int96ToMicros>{});
    case PhysicalType::kFloat: return Make<FloatType>(type, width, DirectSink<FloatType>{});
    case PhysicalType::kDouble: return Make<DoubleType>(type, width, DirectSink<DoubleType>{});
    case PhysicalType::kByteArray:
      if (id == TypeId::kDecimal128) {
        return Make<ByteArrayType>(type, width,
                                   ConvertSink<ByteArrayType, Decimal128, BytesToDecimal128>{});
      }
      return Make<ByteArrayType>(type, width, BinarySink<ByteArrayType>{});
    case PhysicalType::kFixedLenByteArray:
      if (id == TypeId::kDecimal128) {
        return Make<FixedLenByteArrayType>(
            type, width, ConvertSink<FixedLenByteArrayType, Decimal128, BytesToDecimal128>{});
      }
      return Make<FixedLenByteArrayType>(type, width, FixedBinarySink(width));
  }
  return Status::NotSupported("column '" + column.path + "': physical type " +
                              PhysicalTypeName(column.physical_type));
}

}  // namespace pqsift::column

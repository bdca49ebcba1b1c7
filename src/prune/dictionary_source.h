// Where the dictionary stage gets dictionaries from: an interface, so the stage reasons about
// values without knowing how pages are fetched or decoded, and the scan (which implements it,
// scan/dictionary_store.h) keeps the fetched bytes for its own reads of the same chunks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift::prune {

class DictionarySource {
 public:
  struct Request {
    size_t row_group = 0;
    int32_t leaf = 0;
  };

  virtual ~DictionarySource() = default;

  // Fetches and decodes the dictionary pages of the requested column chunks (whose footer the
  // caller checked: every data page dictionary-encoded, a dictionary page before the data pages),
  // adding the bytes it read to *bytes_read. A dictionary that turns out unusable (the page is
  // not a dictionary page, does not decode, is larger than the footer said) is simply absent
  // afterwards; errors are the file's I/O errors only.
  virtual Status Load(std::span<const Request> requests, uint64_t* bytes_read) = 0;

  // The entries of a loaded dictionary, as an array of the leaf's Arrow type (ArrowTypeForLeaf);
  // null when it was not loaded or is unusable. Valid as long as the source.
  virtual std::shared_ptr<const Array> dictionary(size_t row_group, int32_t leaf) const = 0;
};

}  // namespace pqsift::prune

// Export of a BatchReader through the Arrow C Stream Interface.
#include <cerrno>
#include <exception>
#include <new>
#include <string>

#include "pqsift/arrow_export.h"

namespace pqsift {
namespace {

struct StreamPrivate {
  std::shared_ptr<BatchReader> reader;
  std::shared_ptr<const BatchSchema> schema;  // fetched once, checked against every batch
  std::string last_error;
  int error_code = 0;  // sticky once the stream failed
  bool finished = false;
};

int ErrnoFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return 0;
    case StatusCode::kInvalidArgument: return EINVAL;
    case StatusCode::kNotSupported: return ENOSYS;
    case StatusCode::kResourceExhausted: return ENOMEM;
    default: return EIO;
  }
}

StreamPrivate* Private(ArrowArrayStream* stream) {
  return static_cast<StreamPrivate*>(stream->private_data);
}

int Fail(StreamPrivate* p, const Status& status, bool sticky) {
  p->last_error = status.ToString();
  int code = ErrnoFor(status);
  if (sticky) p->error_code = code;
  return code;
}

// Runs `body` (returning an errno value) with exceptions turned into error codes: nothing
// may propagate through a C callback.
template <typename F>
int Guarded(StreamPrivate* p, F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(p, Status::ResourceExhausted("out of memory"), true);
  } catch (const std::exception& e) {
    return Fail(p, Status::Internal(std::string("exception: ") + e.what()), true);
  } catch (...) {
    return Fail(p, Status::Internal("unknown exception"), true);
  }
}

Status FetchSchema(StreamPrivate* p) {
  if (p->schema != nullptr) return Status::OK();
  p->schema = p->reader->schema();
  if (p->schema == nullptr) return Status::Internal("the batch reader has no schema");
  return Status::OK();
}

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  StreamPrivate* p = Private(stream);
  if (out != nullptr) out->release = nullptr;
  return Guarded(p, [&] {
    if (out == nullptr) return Fail(p, Status::InvalidArgument("get_schema: null output"), false);
    Status status = FetchSchema(p);
    if (status.ok()) status = ExportSchema(*p->schema, out);
    return status.ok() ? 0 : Fail(p, status, false);
  });
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  StreamPrivate* p = Private(stream);
  if (out == nullptr) return Fail(p, Status::InvalidArgument("get_next: null output"), false);
  out->release = nullptr;  // also the end-of-stream marker
  if (p->error_code != 0) return p->error_code;
  if (p->finished) return 0;
  return Guarded(p, [&] {
    Status status = FetchSchema(p);
    if (!status.ok()) return Fail(p, status, true);
    Result<std::shared_ptr<RecordBatch>> next = p->reader->Next();
    if (!next.ok()) return Fail(p, next.status(), true);
    if (*next == nullptr) {
      p->finished = true;
      return 0;
    }
    const RecordBatch& batch = **next;
    const auto& expected = p->schema->fields;
    bool matches = batch.schema != nullptr && batch.schema->fields.size() == expected.size();
    for (size_t i = 0; matches && i < expected.size(); ++i) {
      matches = batch.schema->fields[i] == expected[i];
    }
    if (!matches) {
      return Fail(p, Status::Internal("a batch's schema differs from the stream's schema"), true);
    }
    status = ExportRecordBatch(batch, out, nullptr);
    // A malformed batch is the producer's fault, not the consumer's: EIO, not EINVAL.
    if (!status.ok()) return Fail(p, Status::Internal(status.message()), true);
    return 0;
  });
}

const char* GetLastError(ArrowArrayStream* stream) {
  StreamPrivate* p = Private(stream);
  return p->last_error.empty() ? nullptr : p->last_error.c_str();
}

void ReleaseStream(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete Private(stream);
  stream->release = nullptr;
}

}  // namespace

Status ExportBatchStream(std::shared_ptr<BatchReader> reader, ArrowArrayStream* out) {
  if (out == nullptr) return Status::InvalidArgument("ExportBatchStream: null output");
  out->release = nullptr;
  if (reader == nullptr) return Status::InvalidArgument("ExportBatchStream: null reader");
  auto* p = new StreamPrivate;
  p->reader = std::move(reader);
  out->get_schema = &GetSchema;
  out->get_next = &GetNext;
  out->get_last_error = &GetLastError;
  out->release = &ReleaseStream;
  out->private_data = p;
  return Status::OK();
}

}  // namespace pqsift

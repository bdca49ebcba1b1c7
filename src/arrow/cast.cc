// Cast arithmetic shared by the binder, the evaluator, the prover and variant_get (cast.h).
#include "arrow/cast.h"

#include "arrow/layout.h"

namespace pqsift::cast {

int128 Pow10(int n) {
  // Unsigned, so a caller's n > 38 wraps instead of being undefined.
  unsigned __int128 v = 1;
  for (int k = 0; k < n; ++k) v *= 10;
  return static_cast<int128>(v);
}

std::optional<int128> PowerOfTen(int k) {
  if (k < 0 || k > 38) return std::nullopt;
  return Pow10(k);
}

int64_t TicksPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis: return 1000;
    case TimeUnit::kMicros: return 1000000;
    case TimeUnit::kNanos: return 1000000000;
  }
  return 0;
}

int TickDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis: return 3;
    case TimeUnit::kMicros: return 6;
    case TimeUnit::kNanos: return 9;
  }
  return 0;
}

int128 ClampLimit() {
  static const int128 limit = Pow10(38);
  return limit;
}

Ticks ScaleExact(int128 num, int128 mul, int128 div) {
  const int128 clamp = ClampLimit();
  int128 magnitude = num < 0 ? -num : num;
  if (mul > 1 && magnitude > clamp / mul) return {num < 0 ? -clamp : clamp, true};
  int128 product = num * mul;
  int128 q = product / div;
  int128 r = product % div;
  if (r != 0 && product < 0) --q;
  if (q > clamp) return {clamp, true};
  if (q < -clamp) return {-clamp, true};
  return {q, r == 0};
}

std::optional<int128> ScaleUpFactor(const DataType& from, const DataType& to) {
  if (to.id == TypeId::kDecimal128) {
    int32_t from_scale = from.id == TypeId::kDecimal128 ? from.scale : 0;
    int128 factor = 1;
    for (int32_t k = from_scale; k < to.scale; ++k) factor *= 10;
    return factor;
  }
  if (to.id == TypeId::kTimestamp || to.id == TypeId::kTime64) {
    if (from.id == TypeId::kDate32) return int128{86400} * TicksPerSecond(to.unit);
    return int128{TicksPerSecond(to.unit)} / TicksPerSecond(from.unit);
  }
  return std::nullopt;
}

TimestampDay SplitTimestamp(int64_t ticks, TimeUnit unit) {
  if (unit == TimeUnit::kNanos) ticks /= 1000;  // truncated, as DuckDB's cast
  const int64_t per_second = TicksPerSecond(unit == TimeUnit::kNanos ? TimeUnit::kMicros : unit);
  const int64_t per_day = per_second * 86400;
  TimestampDay out;
  out.day = ticks / per_day;
  int64_t into = ticks % per_day;
  if (into < 0) {
    into += per_day;
    --out.day;
  }
  out.micros = into * (1000000 / per_second);
  return out;
}

bool SplitsIntoDays(const DataType& type) {
  return type.id == TypeId::kDate32 ||
         (type.id == TypeId::kTimestamp && TicksPerSecond(type.unit) > 0);
}

TimestampDay SplitDateOrTimestamp(int64_t value, const DataType& type) {
  if (type.id == TypeId::kDate32) return TimestampDay{value, 0};
  return SplitTimestamp(value, type.unit);
}

bool CastsToDay(const DataType& from, const DataType& to) {
  return from.id == TypeId::kTimestamp && to.id == TypeId::kDate32 && SplitsIntoDays(from);
}

std::optional<int128> IntCastFactor(const DataType& from, const DataType& to) {
  bool from_number = layout::IsInteger(from.id) || from.id == TypeId::kDecimal128;
  if (from_number && to.id == TypeId::kDecimal128) {
    int from_scale = from.id == TypeId::kDecimal128 ? from.scale : 0;
    return PowerOfTen(to.scale - from_scale);
  }
  // Between plain integers the value is unchanged (a narrowing that overflows is an error at
  // evaluation, so every value that survives is its own bound).
  if (layout::IsInteger(from.id) && layout::IsInteger(to.id)) return 1;
  bool from_time = from.id == TypeId::kTime32 || from.id == TypeId::kTime64;
  bool to_time = to.id == TypeId::kTime32 || to.id == TypeId::kTime64;
  // A change of time zone would shift values, not scale them: only the unit may change.
  bool same_zone_timestamps =
      from.id == TypeId::kTimestamp && to.id == TypeId::kTimestamp && from.timezone == to.timezone;
  if ((from_time && to_time) || same_zone_timestamps) {
    int64_t f = TicksPerSecond(from.unit);
    int64_t t = TicksPerSecond(to.unit);
    if (f == 0 || t < f || t % f != 0) return std::nullopt;
    return t / f;
  }
  if (from.id == TypeId::kDate32 && to.id == TypeId::kDate32) return 1;
  // Midnight of the day, as a local date-time or at UTC (no other zone is implied).
  if (from.id == TypeId::kDate32 && to.id == TypeId::kTimestamp &&
      (to.timezone.empty() || to.timezone == "UTC")) {
    return static_cast<int128>(86400) * TicksPerSecond(to.unit);
  }
  return std::nullopt;
}

}  // namespace pqsift::cast

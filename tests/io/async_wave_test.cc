// io/async_wave.h: waves started without waiting, taken piece by piece; the prefetch ledger's
// budget; and the IoCounters they count on (waves, busy periods, blocked time).
#include "io/async_wave.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace pqsift::io {
namespace {

std::unique_ptr<RandomAccessFile> Bytes(size_t n, std::shared_ptr<IoCounters> counters) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  auto file = MakeMemoryFile("mem", bytes);
  file->ShareCounters(std::move(counters));
  return file;
}

TEST(AsyncWaveTest, TakesExactReadsOnceAndCopiesParts) {
  auto counters = std::make_shared<IoCounters>();
  auto file = Bytes(1000, counters);
  auto ledger = std::make_shared<PrefetchLedger>(uint64_t{1} << 20);
  auto wave = AsyncWave::Start(*file, {{0, 100}, {500, 200}}, ledger);
  EXPECT_EQ(ledger->held_bytes(), 300u);
  // A part of read 1: a copy, read 1 stays.
  std::optional<Buffer> part = wave->Take(1, {550, 10});
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->size(), 10u);
  EXPECT_EQ(part->data()[0], static_cast<uint8_t>(550 * 7));
  // Read 0 whole: handed over, then gone.
  std::optional<Buffer> whole = wave->Take(0, {0, 100});
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->size(), 100u);
  EXPECT_FALSE(wave->Take(0, {0, 100}).has_value());
  // Outside the read: nothing.
  EXPECT_FALSE(wave->Take(1, {450, 100}).has_value());
  IoStats s = counters->Snapshot();
  EXPECT_EQ(s.read_requests, 2u);
  EXPECT_EQ(s.waves, 1u);
  EXPECT_EQ(s.round_trips, 1u);
  wave.reset();
  EXPECT_EQ(ledger->held_bytes(), 0u);  // the budget is given back with the wave
  ledger->WaitIdle();
}

TEST(AsyncWaveTest, SharedReadsAreCopiedNeverHandedOver) {
  auto file = Bytes(1000, nullptr);
  auto wave = AsyncWave::Start(*file, {{100, 50}}, std::make_shared<PrefetchLedger>(1000));
  EXPECT_TRUE(wave->Share(0));
  ASSERT_TRUE(wave->Take(0, {100, 50}).has_value());
  ASSERT_TRUE(wave->Take(0, {100, 50}).has_value());
  // Handed over first: sharing it fails (the second taker fetches it again).
  auto other = AsyncWave::Start(*file, {{100, 50}}, nullptr);
  ASSERT_TRUE(other->Take(0, {100, 50}).has_value());
  EXPECT_FALSE(other->Share(0));
}

TEST(AsyncWaveTest, AFailedWaveGivesNothing) {
  auto file = Bytes(100, nullptr);
  auto ledger = std::make_shared<PrefetchLedger>(1000);
  auto wave = AsyncWave::Start(*file, {{50, 100}}, ledger);  // past the end: OutOfRange
  EXPECT_FALSE(wave->Take(0, {50, 10}).has_value());
  EXPECT_FALSE(wave->Share(0));
  ledger->WaitIdle();
}

TEST(AsyncWaveTest, LedgerHasRoomUntilTheBudgetIsHeld) {
  auto file = Bytes(1000, nullptr);
  auto ledger = std::make_shared<PrefetchLedger>(150);
  EXPECT_TRUE(ledger->HasRoom());
  auto a = AsyncWave::Start(*file, {{0, 100}}, ledger);
  EXPECT_TRUE(ledger->HasRoom());
  auto b = AsyncWave::Start(*file, {{100, 100}}, ledger);  // one wave past the budget
  EXPECT_FALSE(ledger->HasRoom());
  a.reset();
  EXPECT_TRUE(ledger->HasRoom());
}

TEST(IoCountersTest, AsyncWavesAreWavesAndBusyTimeNotWaits) {
  IoCounters c;
  c.BeginAsync();  // a prefetch in flight ...
  c.BeginAsync();  // ... and another started meanwhile: one round trip, two waves
  c.EndAsync();
  c.BeginBlocked();  // a task waits for the second
  c.EndBlocked();
  c.EndAsync();
  c.BeginWait();  // a blocking read afterwards: another round trip and wave
  c.EndWait();
  IoStats s = c.Snapshot();
  EXPECT_EQ(s.waves, 3u);
  EXPECT_EQ(s.round_trips, 2u);
  EXPECT_LE(s.wait_seconds, s.busy_seconds);
}

}  // namespace
}  // namespace pqsift::io

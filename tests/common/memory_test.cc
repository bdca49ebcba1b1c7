// The block allocator: alignment, capacities, reuse of freed blocks, huge-page alignment.
#include "common/memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace pqsift::memory {
namespace {

bool AlignedTo(const uint8_t* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

TEST(MemoryTest, EmptyBlockForZeroBytes) {
  Block b = Allocate(0);
  EXPECT_EQ(b.data, nullptr);
  EXPECT_EQ(b.capacity, 0u);
  Free(b);  // no-op
}

TEST(MemoryTest, EverySizeIsAlignedAndWritableToItsCapacity) {
  for (size_t size : {size_t{1}, size_t{63}, size_t{4096}, kCachedBlockBytes - 1, kCachedBlockBytes,
                      kCachedBlockBytes + 1, size_t{700} << 10, kHugeBlockBytes - 1,
                      kHugeBlockBytes, size_t{5} << 20}) {
    Block b = Allocate(size);
    ASSERT_NE(b.data, nullptr) << size;
    EXPECT_GE(b.capacity, size);
    EXPECT_TRUE(AlignedTo(b.data, kAlignment)) << size;
    std::memset(b.data, 0xAB, b.capacity);  // sanitizer builds catch a short block
    Free(b);
  }
}

TEST(MemoryTest, LargeBlocksAreHugePageAligned) {
  if (!Pooling()) GTEST_SKIP() << "sanitizer build: blocks come from the C allocator";
  Block b = Allocate(kHugeBlockBytes + 1);
  EXPECT_TRUE(AlignedTo(b.data, kHugeBlockBytes));
  EXPECT_EQ(b.capacity, 2 * kHugeBlockBytes);  // power-of-two classes
  Free(b);
}

TEST(MemoryTest, MediumBlocksComeFromOneSlabAndDoNotOverlap) {
  size_t size = size_t{256} << 10;
  std::vector<Block> blocks;
  for (int i = 0; i < 8; ++i) blocks.push_back(Allocate(size));
  for (size_t i = 0; i < blocks.size(); ++i) std::memset(blocks[i].data, static_cast<int>(i), size);
  for (size_t i = 0; i < blocks.size(); ++i) {
    EXPECT_EQ(blocks[i].data[0], static_cast<uint8_t>(i));
    EXPECT_EQ(blocks[i].data[size - 1], static_cast<uint8_t>(i));
  }
  for (Block b : blocks) Free(b);
}

TEST(MemoryTest, FreedBlockIsReusedForTheSameClass) {
  if (!Pooling()) GTEST_SKIP() << "sanitizer build: blocks come from the C allocator";
  // Reuse is the point of the cache: the next block of the class is the warm one just freed.
  for (size_t size : {kCachedBlockBytes + 1, size_t{3} << 20}) {
    Block first = Allocate(size);
    Free(first);
    Block second = Allocate(size + 100);  // another size of the same power-of-two class
    EXPECT_EQ(second.data, first.data) << size;
    EXPECT_EQ(second.capacity, first.capacity);
    Free(second);
  }
}

}  // namespace
}  // namespace pqsift::memory

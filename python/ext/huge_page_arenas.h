// CPython's small-object allocator (pymalloc) on transparent huge pages, for processes that
// build many Python objects from scans (string columns: one str per row).
//
// pymalloc takes memory in arenas of 1 MiB, each a fresh mmap whose 256 pages fault one by one
// on first use. Page faults are dear on virtual machines (src/common/memory.h): a DataFrame of
// 40 million strings spent more system time faulting their arenas in than building them. With
// UseHugePageArenas the arenas are cut from 64 MiB regions advised to use 2 MiB huge pages, and
// an arena pymalloc frees is kept for the next one instead of being unmapped: memory Python
// frees stays in the process (as TuneAllocatorForScans keeps glibc's), reused by later objects.
//
// Process-wide and permanent: pqsift.tune_allocator() opts in. Thread safety: the allocator
// functions lock; pymalloc calls them with the GIL held anyway.
#pragma once

namespace pqsift::python {

// Installs the allocator (once; later calls do nothing).
void UseHugePageArenas();

}  // namespace pqsift::python

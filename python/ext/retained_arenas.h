// CPython's small-object allocator (pymalloc) on arenas that are kept, for processes that build
// many Python objects from scans (string columns: one str per row).
//
// pymalloc takes memory in arenas of 1 MiB, each a fresh mmap, and unmaps an arena once its
// objects are freed, so the next DataFrame of strings faults its memory in again. With
// UseRetainedArenas the arenas are cut from 64 MiB regions, and an arena pymalloc frees is kept
// for the next one instead of being unmapped: memory Python frees stays in the process (as
// TuneAllocatorForScans keeps glibc's), reused by later objects (20M strings converted again in
// the same process: 2.0 s instead of 2.6 s). The regions are not advised to use transparent huge
// pages: on a virtual machine a cold huge page costs ~4.6 ms at its first touch
// (src/common/memory.h), and the first conversion of 20M strings took 11.5 s with them, 2.8 s
// without.
//
// Process-wide and permanent: pqsift.tune_allocator() opts in. Thread safety: the allocator
// functions lock; pymalloc calls them with the GIL held anyway.
#pragma once

namespace pqsift::python {

// Installs the allocator (once; later calls do nothing).
void UseRetainedArenas();

}  // namespace pqsift::python

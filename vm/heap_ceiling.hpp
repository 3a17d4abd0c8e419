// The largest single allocation beamvm attempts: physical memory plus swap, the bound Linux's
// default (heuristic) overcommit puts on one request. Larger requests for heaps and binaries
// fail as erts' do (an allocator that reserves without committing would otherwise succeed and
// leave the kernel's OOM killer to end the VM, or another program, later).
#pragma once

#include <cstddef>

namespace beam {

size_t allocation_ceiling_bytes();

}  // namespace beam

// The beamvm executable's allocator settings, made before the VM starts.
#pragma once

namespace beam {

// With mimalloc linked in (BEAMVM_MIMALLOC): heap blocks come from it (vm/gc.hpp), and it
// keeps freed pages committed for a second before returning them.
void setup_allocator();

}  // namespace beam

// What the memory owners count about themselves, for erlang:memory/0,1
// (bifs/system_memory.cpp). Each figure is kept by the allocator it describes as a relaxed
// atomic, so reading it never stops or inspects a running process.
#pragma once

#include <cstddef>

namespace beam::gc {

// Process heap blocks (young and old generations, vm/gc_blocks.cpp): words in blocks that
// exist, including those kept in the schedulers' block caches, and words in blocks that
// processes hold. Both count whole blocks, free space inside a heap included.
size_t heap_block_words_allocated();
size_t heap_block_words_in_use();

}  // namespace beam::gc

namespace beam::nif {

// NIF resource objects alive (nif/resources.cpp): their bytes, the library's data included.
// erts allocates resources as magic binaries in binary_alloc, so erlang:memory(binary) counts
// them; beamvm's does too.
size_t resource_bytes();

}  // namespace beam::nif

// What processes own outside their heap blocks and Process structures, allocated only when
// used (mailbox buffers, receive marker tables, the rarely used fields: issue 11). Owners
// report each allocation (+bytes) and release (-bytes); erlang:memory(processes) adds the sum
// (bifs/system_memory.cpp). A relaxed atomic: statistics only.
#pragma once

#include <cstddef>

namespace beam {

void count_process_side_bytes(std::ptrdiff_t bytes);
size_t process_side_bytes();

}  // namespace beam

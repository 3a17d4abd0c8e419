// max_heap_size's error report sent to the system logger, as erts sends it (GcHooks::max_heap_report).
#pragma once

#include <cstddef>

namespace beam {

struct Process;

// With OTP booted: the report with erts' format and arguments (pid, node when alive, max heap
// size, total heap size, kill, error_logger, message queue length, GC info) to the system
// logger. False when OTP is not booted or there is no logger process to take it.
bool max_heap_report_to_logger(Process* p, size_t total);

}  // namespace beam

// What erlang:system_info/1 reports about the settings erlang:system_flag/2 changes
// (bifs/system_flags.cpp), so the two agree.
#pragma once

#include "vm/process.hpp"

namespace beam {

// system_info(Item) for the items that mirror a system flag (min_heap_size, max_heap_size,
// fullsweep_after, ...), or NON_VALUE if `item` is not one of them.
Term system_flag_info(Process* p, Term item);

// system_flag(scheduler_wall_time, On) by p (scheduler/wall_time.hpp): true if the
// measurement was on before. Without schedulers (a VM that runs none) it is never on.
bool set_scheduler_wall_time(Process* p, bool on);

}  // namespace beam

// What the erts_debug hooks need from process_info's machinery (bifs/system_process_info.cpp).
#pragma once

#include "vm/process.hpp"

namespace beam {

// erts_debug:get_internal_state({link_list | monitor_list, PidOrPort}): the links or monitors
// as erts' #erl_link{} and #erl_monitor{} records, read after the process has taken in its
// signals; undefined for one that is gone (or a node name: no connection keeps its own).
Term link_or_monitor_list(Process* p, Term request);

}  // namespace beam

// erlang:system_info/1 items kept apart from the core ones (bifs/system_info_items.cpp).
#pragma once

#include "vm/process.hpp"

namespace beam {

// The value of `what`, or NON_VALUE when it is not one of these items.
Term system_info_item(Process* p, Term what);

}  // namespace beam

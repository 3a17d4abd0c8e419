// The ets natives' tables, one per file of ets/ (registered together by ets_bifs()).
#pragma once

#include <span>

#include "bifs/bif.hpp"

namespace beam::ets {

std::span<const BifSpec> op_bifs();      // ets/ets_ops.cpp
std::span<const BifSpec> admin_bifs();   // ets/ets_admin.cpp
std::span<const BifSpec> select_bifs();  // ets/ets_select.cpp

}  // namespace beam::ets

// The options table's face for nif_supports(options) (io/socket/socket_options.cpp).
#pragma once

#include "vm/process.hpp"

namespace beam::esock {

// [{Level, [{Name, Num} | Name]}]: Level `socket` or the protocol number; a Name alone is
// not supported here.
Term supported_options(Process* p);

}  // namespace beam::esock

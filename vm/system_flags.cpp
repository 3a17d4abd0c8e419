#include "vm/system_flags.hpp"

#include "vm/vm.hpp"

namespace beam {

SystemFlags& system_flags(VM& vm) { return vm.sys_flags; }

}  // namespace beam

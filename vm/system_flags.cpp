#include "vm/system_flags.hpp"

namespace beam {

SystemFlags& system_flags() {
    static SystemFlags flags;
    return flags;
}

}  // namespace beam

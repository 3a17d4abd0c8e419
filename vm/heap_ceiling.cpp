#include "vm/heap_ceiling.hpp"

#include <sys/sysinfo.h>

#include <cstdint>
#include <limits>

namespace beam {

size_t allocation_ceiling_bytes() {
    static const size_t ceiling = [] {
        struct sysinfo si {};
        if (sysinfo(&si) != 0) return std::numeric_limits<size_t>::max();
        return size_t((uint64_t(si.totalram) + uint64_t(si.totalswap)) * si.mem_unit);
    }();
    return ceiling;
}

}  // namespace beam

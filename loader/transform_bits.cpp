#include "loader/transform_bits.hpp"

namespace beam::loader {

bool transform_bits(const GenericInstr& gi, const ParsedModule& pm, ModuleCode& mc, Emitter& em) {
    return false;
}

}  // namespace beam::loader

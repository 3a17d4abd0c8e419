#include "vm/module.hpp"

#include <algorithm>

namespace beam {

const FunctionInfo* ModuleCode::function_at(const Word* pc) const {
    auto it = std::upper_bound(functions.begin(), functions.end(), pc,
                               [](const Word* a, const FunctionInfo& f) { return a < f.start; });
    if (it == functions.begin()) return nullptr;
    --it;
    return pc < it->end ? &*it : nullptr;
}

const LineRecord* ModuleCode::line_at(const Word* pc) const {
    auto it = std::upper_bound(lines.begin(), lines.end(), pc,
                               [](const Word* a, const LineRecord& l) { return a < l.address; });
    if (it == lines.begin()) return nullptr;
    return &*--it;
}

}  // namespace beam

// What the external format's reader and writer (embed/value_external.cpp) and the printer
// (embed/value.cpp) need of beamvm::Value's representation.
#pragma once

#include <string>

#include "beamvm/value.hpp"

namespace beamvm {

struct ValueAccess {
    // An integer from its sign and little-endian magnitude: small when it fits int64_t.
    static Value integer_from_magnitude(bool negative, std::string magnitude);
    // A pid, port, reference or fun: its kind and its external encoding (tag first).
    static Value opaque(Value::Kind kind, std::string encoding);
    // How erl prints such a value, node numbers shown as 0.
    static std::string opaque_text(const Value& v);
    // The external encoding of `v`, without the version byte, appended to `out`.
    static void write(const Value& v, std::string& out);
    // One term at `pos` (after the version byte); advances `pos`.
    static Value read(std::string_view in, size_t& pos, int depth);
};

}  // namespace beamvm

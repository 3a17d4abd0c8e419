// Generic opcodes as erlc writes them (loader/generic_ops.def), with their arities.
// Names like `catch` and `try` are C++ keywords, so the enum prefixes every name with `op_`.
#pragma once

#include <cstdint>
#include <string_view>

namespace beam::loader {

enum GenericOp : uint8_t {
#define GENOP(num, name, arity, obsolete) op_##name = num,
#include "loader/generic_ops.def"
#undef GENOP
};

inline constexpr unsigned MAX_GENERIC_OPCODE = 183;

struct GenericOpInfo {
    std::string_view name;  // empty for numbers that are not opcodes (0)
    uint8_t arity;
    bool obsolete;  // OTP 25 refuses to load it
};

inline constexpr GenericOpInfo GENERIC_OPS[MAX_GENERIC_OPCODE + 1] = {
    {"", 0, false},
#define GENOP(num, name, arity, obsolete) {#name, arity, obsolete != 0},
#include "loader/generic_ops.def"
#undef GENOP
};

// Compile-time proof that the .def lists every number from 1 to MAX_GENERIC_OPCODE in order.
namespace detail {
constexpr bool generic_ops_dense() {
    unsigned expect = 1;
#define GENOP(num, name, arity, obsolete) \
    if (num != expect++) return false;
#include "loader/generic_ops.def"
#undef GENOP
    return expect == MAX_GENERIC_OPCODE + 1;
}
static_assert(generic_ops_dense(), "generic_ops.def must list opcodes 1..MAX_GENERIC_OPCODE in order");
}  // namespace detail

inline bool is_generic_opcode(unsigned op) { return op >= 1 && op <= MAX_GENERIC_OPCODE; }
// Name for messages; "?" for numbers outside the table.
inline std::string_view generic_op_name(unsigned op) { return is_generic_opcode(op) ? GENERIC_OPS[op].name : "?"; }
inline unsigned generic_op_arity(unsigned op) { return is_generic_opcode(op) ? GENERIC_OPS[op].arity : 0; }

}  // namespace beam::loader

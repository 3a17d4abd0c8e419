// The one calling convention for native functions.
//
// A BIF receives the calling process and a pointer to its arguments (x registers or a copy)
// and returns a term, or NON_VALUE with the exception set on the process (p->error(...)).
// BIFs never run the GC: they allocate with p->alloc(), which falls back to heap fragments.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

class VM;

using BifFn = Term (*)(Process* p, const Term* args);

struct BifSpec {
    std::string_view module;  // "erlang", "lists", ...
    std::string_view name;
    uint8_t arity;
    BifFn fn;
    bool guard = false;  // allowed in guards (is_atom/1, element/2, ...); failure jumps to fail label
};

// Each family (bifs/arith.cpp, bifs/lists.cpp, ...) defines one table and registers it in
// bifs/bif_registry.cpp. Tables are plain data, so adding a BIF is one line.
struct BifTable {
    std::span<const BifSpec> specs;
};

// All registered BIFs, across families.
std::span<const BifSpec* const> all_bifs();
const BifSpec* find_bif(Term module, Term name, unsigned arity);
// find_bif as `vm` sees it: with OTP booted (VM::otp_boot) OTP's own code module runs, so
// beamvm's natives standing in for it are not there.
const BifSpec* find_bif_in(const VM& vm, Term module, Term name, unsigned arity);
// True if some function of `module` is native here (erlang:load_nif/2 of OTP's NIF modules).
bool has_natives(Term module);

// An OTP function implemented in Erlang by beamvm's module `target` (bifs/standins.cpp).
struct Standin {
    std::string_view module;
    std::string_view name;
    uint8_t arity;
    std::string_view target;
};
const Standin* find_standin(Term module, Term name, unsigned arity);

}  // namespace beam

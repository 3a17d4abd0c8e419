// The external term format (term_to_binary / binary_to_term), version byte 131.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "vm/heap.hpp"
#include "vm/result.hpp"
#include "vm/term.hpp"

namespace beam {

struct Export;

struct DecodeOptions {
    bool safe = false;  // refuse to create new atoms
    // Finds the export entry an EXPORT_EXT fun refers to (the runtime's export table of the
    // decoding process's namespace). When null, entries come from a process-wide table of
    // detached exports that lives as long as the program (tests, literals parsed before the
    // runtime exists); the runtime can re-point such literals when it loads the module.
    Export* (*resolve_export)(void* ctx, Term module, Term function, uint32_t arity) = nullptr;
    void* resolve_ctx = nullptr;
};

// The detached export entry for M:F/A used when DecodeOptions::resolve_export is null.
Export* detached_export(Term module, Term function, uint32_t arity);

// Decodes one term starting with the 131 version byte (zlib-compressed form included).
// `used` receives the number of bytes consumed. Malformed input is an Error, never a crash.
Result<Term> decode_external(TermAllocator& a, std::span<const uint8_t> bytes, size_t* used = nullptr,
                             DecodeOptions opts = {});

struct EncodeOptions {
    int compressed = 0;  // 0 = off, 1..9 = zlib level
    int minor_version = 2;
    bool deterministic = false;
};

// Appends the encoding of `t` (with the 131 version byte) to `out`.
// Returns an Error for terms it cannot encode.
Result<void> encode_external(Term t, std::vector<uint8_t>& out, EncodeOptions opts = {});

}  // namespace beam

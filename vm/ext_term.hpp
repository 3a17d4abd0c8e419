// The external term format (term_to_binary / binary_to_term), version byte 131.
#pragma once

#include <array>

#include <cstdint>
#include <span>
#include <vector>

#include "vm/heap.hpp"
#include "vm/node_identity.hpp"
#include "vm/result.hpp"
#include "vm/term.hpp"

namespace beam {

struct Export;
struct FunEntry;

// What NEW_FUN_EXT says about a local fun's code (OTP 25: Uniq is the module's md5).
struct FunRef {
    Term module;
    uint32_t index;      // OldIndex: position in the module's FunT
    uint32_t new_index;  // Index
    uint32_t old_uniq;
    uint8_t md5[16];
    uint32_t fun_arity;
    uint32_t num_free;
};

struct DecodeOptions {
    bool safe = false;  // refuse to create new atoms
    // Finds the export entry an EXPORT_EXT fun refers to (the runtime's export table of the
    // decoding process's namespace). When null, entries come from a process-wide table of
    // detached exports that lives as long as the program (tests, literals parsed before the
    // runtime exists); the runtime can re-point such literals when it loads the module.
    Export* (*resolve_export)(void* ctx, Term module, Term function, uint32_t arity) = nullptr;
    // Finds the FunEntry a NEW_FUN_EXT fun refers to (the loaded code of the decoding process's
    // namespace, when it matches). When null, or when it returns null, the entry is
    // detached_fun(ref): a call resolves it later.
    FunEntry* (*resolve_fun)(void* ctx, const FunRef& ref) = nullptr;
    void* resolve_ctx = nullptr;  // passed to both resolvers
    // This node: pids, ports and references with its name and creation decode as local ones,
    // all others as external ones (vm/ext_ids.hpp). Null means nonode@nohost, creation 0.
    const NodeIdentity* node = nullptr;
    // The atoms a distribution header announced: ATOM_CACHE_REF (tag 82, one index byte)
    // stands for atom_cache[index]; an index beyond it is an error.
    std::span<const Term> atom_cache;
    // The term starts with its tag, without the 131 version byte (terms after a distribution
    // header); it cannot be compressed.
    bool versionless = false;
};

// The resolvers binary_to_term uses, with the calling Process* as context. The runtime fills
// them in (vm/fun_resolve.cpp); without it (unit tests of the BIFs) both stay null.
struct RuntimeDecodeHooks {
    Export* (*resolve_export)(void* ctx, Term module, Term function, uint32_t arity) = nullptr;
    FunEntry* (*resolve_fun)(void* ctx, const FunRef& ref) = nullptr;
};
inline RuntimeDecodeHooks runtime_decode_hooks;

// The detached export entry for M:F/A used when DecodeOptions::resolve_export is null.
Export* detached_export(Term module, Term function, uint32_t arity);

// The detached FunEntry for `ref` (FunEntry::detached, no code), one per distinct ref for the
// life of the program, as OTP keeps a fun entry for every fun it has decoded.
FunEntry* detached_fun(const FunRef& ref);

// Decodes one term starting with the 131 version byte (zlib-compressed form included), or
// with its tag if opts.versionless.
// `used` receives the number of bytes consumed. Malformed input is an Error, never a crash.
Result<Term> decode_external(TermAllocator& a, std::span<const uint8_t> bytes, size_t* used = nullptr,
                             DecodeOptions opts = {});

// The atoms of one distribution message that go through its connection's atom cache
// (erl_ext_dist, "Distribution Header"): the encoder writes ATOM_CACHE_REF i (tag 82) for
// atoms()[i], and the header sent with the message tells the receiver which atom each i is.
// At most 255 per message (the header's count is one byte); further atoms are written in full.
class AtomCacheRefs {
public:
    static constexpr size_t MAX = 255;
    // The message-local index of `a`, added when new; -1 when MAX atoms are already listed.
    int index_of(Term a) {
        size_t h = (atom_index(a) * 0x9E3779B1u) >> 23;  // 9 bits: a slot of the 512
        for (;; h = (h + 1) & (SLOTS - 1)) {
            uint8_t v = slot_[h];
            if (v == 0) break;
            if (atoms_[v - 1] == a) return v - 1;
        }
        if (n_ == MAX) return -1;
        atoms_[n_] = a;
        where_[n_] = uint16_t(h);
        slot_[h] = uint8_t(++n_);
        return int(n_ - 1);
    }
    std::span<const Term> atoms() const { return {atoms_.data(), n_}; }
    void clear() {
        for (size_t i = 0; i < n_; ++i) slot_[where_[i]] = 0;
        n_ = 0;
    }

private:
    static constexpr size_t SLOTS = 512;  // open addressing, at most half full
    std::array<Term, MAX> atoms_;
    std::array<uint16_t, MAX> where_;  // each atom's slot, for clear()
    std::array<uint8_t, SLOTS> slot_{};  // 0 empty, else index + 1
    size_t n_ = 0;
};

struct EncodeOptions {
    int compressed = 0;  // 0 = off, 1..9 = zlib level
    int minor_version = 1;  // OTP 25's default: NEW_FLOAT_EXT, Latin-1 atoms as ATOM_EXT
    bool deterministic = false;
    // external_size: receives the bytes erts' size estimate counts beyond the encoding (it
    // allows 5 bytes each for a local fun's OldIndex and OldUniq, written here as small
    // integers when they fit in one byte).
    size_t* estimate_slack = nullptr;
    // This node: local pids, ports and references are written with its name and creation.
    // Null means nonode@nohost, creation 0.
    const NodeIdentity* node = nullptr;
    // A distribution message on a connection with DIST_HDR_ATOM_CACHE: atoms become
    // ATOM_CACHE_REFs listed here.
    AtomCacheRefs* atom_refs = nullptr;
};

// Appends the encoding of `t` (with the 131 version byte) to `out`.
// Returns an Error for terms it cannot encode.
Result<void> encode_external(Term t, std::vector<uint8_t>& out, EncodeOptions opts = {});
// term_to_binary: the encoding of `t` as a binary on `a`'s heap, written in place rather than
// copied from a buffer (vm/ext_term_binary.cpp).
Result<Term> encode_external_binary(TermAllocator& a, Term t, EncodeOptions opts = {});
// The size of that encoding (without compression), counted without writing it.
Result<size_t> encoded_size(Term t, EncodeOptions opts = {});

}  // namespace beam

// The atom table: one per OS process, shared by every VM instance and scheduler.
// Atoms are immutable once created and never collected (as in OTP), so readers need no lock:
// entries live in fixed-size blocks that never move, and a new atom is published with a
// release store of the count.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "vm/term.hpp"

namespace beam {

namespace am {
enum AtomIndex : uint32_t {
#define ATOM(id, text) id##_index,
#include "vm/atoms.def"
#undef ATOM
    predefined_count
};
#define ATOM(id, text) inline constexpr Term id = make_atom(id##_index);
#include "vm/atoms.def"
#undef ATOM
}  // namespace am

inline constexpr size_t MAX_ATOM_CHARS = 255;
inline constexpr size_t MAX_ATOMS = 1 << 20;

class AtomTable {
public:
    // Inline, as are the lookups by index below: term ordering compares atoms by name, and
    // phash2 and term_to_binary read their hash and ASCII flag, at every atom they meet.
    static AtomTable& instance() {
        static AtomTable table;
        return table;
    }

    // Interns UTF-8 text. A new atom past limit() ends the VM as erts does ("no more index
    // entries in atom_tab", crash dump, status 1). Callers check the 255-character limit
    // themselves, since its error depends on the BIF.
    std::optional<Term> intern(std::string_view utf8);
    // +t: the most atoms the table takes (MAX_ATOMS at most). One table per OS process, so the
    // command line's VM sets it; embedded VMs share the default.
    void set_limit(size_t n) { limit_.store(n < MAX_ATOMS ? n : MAX_ATOMS, std::memory_order_relaxed); }
    size_t limit() const { return limit_.load(std::memory_order_relaxed); }
    // Looks up an existing atom without creating it.
    std::optional<Term> find(std::string_view utf8) const;
    std::string_view name(Term atom) const { return entry(atom).text; }
    // Whether the name is all ASCII (the external term format writes such a name as it is).
    bool is_ascii(Term atom) const { return entry(atom).ascii; }
    // OTP's hash of the name (hashpjw, code points 0x80..0xFF folded back to latin-1), which
    // erlang:phash2/1,2 mixes in for an atom: computed once, when the atom is made.
    uint32_t portable_hash(Term atom) const { return entry(atom).hash; }
    size_t size() const { return count_.load(std::memory_order_acquire); }

    // Bytes the table has allocated (whole entry blocks, names, the index) and the part of
    // that its atoms use (their entries, names and index nodes), for erlang:memory/0,1.
    struct Memory {
        size_t allocated, used;
    };
    Memory memory() const;

private:
    AtomTable();
    static constexpr size_t BLOCK = 4096;
    struct Entry {
        std::string text;
        bool ascii;
        uint32_t hash;  // portable_hash
    };
    const Entry& entry(Term atom) const {
        uint32_t i = atom_index(atom);
        return blocks_[i / BLOCK][i % BLOCK];
    }
    Entry* blocks_[MAX_ATOMS / BLOCK] = {};
    std::atomic<size_t> count_{0};
    std::atomic<size_t> limit_{MAX_ATOMS};
    size_t name_bytes_ = 0;  // names stored outside their std::string (longer than its SSO)
    mutable std::mutex mutex_;
    std::unordered_map<std::string_view, uint32_t> index_;
};

inline Term atom(std::string_view utf8) { return *AtomTable::instance().intern(utf8); }
inline std::string_view atom_name(Term a) { return AtomTable::instance().name(a); }

}  // namespace beam

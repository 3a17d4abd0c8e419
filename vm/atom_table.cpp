#include "vm/atom_table.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <new>

#include "vm/fatal_error.hpp"

namespace beam {

AtomTable::AtomTable() {
    static constexpr std::string_view predefined[] = {
#define ATOM(id, text) text,
#include "vm/atoms.def"
#undef ATOM
    };
    for (std::string_view text : predefined) intern(text);
}

namespace {

// Each thread's last lookups, by hash: the natives that name atoms by their text on every call
// (erlang:monitor/2's `process`, decode_packet's options, ...) find them here without the
// table's lock. That lock, shared by every scheduler, was a tenth of the futex calls of a TLS
// echo (bench/nif_run.sh tls_1k). A slot holds an atom index plus one (0: empty); the text is
// compared with the atom's own, which never changes once this thread has seen the atom.
constexpr size_t LOOKUP_CACHE = 512;
thread_local uint32_t tls_lookup_cache[LOOKUP_CACHE];

uint32_t& cache_slot(std::string_view utf8) { return tls_lookup_cache[std::hash<std::string_view>{}(utf8) % LOOKUP_CACHE]; }

// OTP's atom hash: hashpjw over the UTF-8 text, with each two-byte sequence of a code point
// 0x80..0xFF folded back to its latin-1 value, so latin-1 atoms hash as before UTF-8 atoms.
uint32_t hashpjw(std::string_view s) {
    uint32_t h = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        uint32_t v = uint8_t(s[i]);
        if (i + 1 < s.size() && (v & 0xFE) == 0xC2 && (uint8_t(s[i + 1]) & 0xC0) == 0x80) {
            v = ((v << 6) | (uint8_t(s[i + 1]) & 0x3F)) & 0xFF;
            ++i;
        }
        h = (h << 4) + v;
        if (uint32_t g = h & 0xF0000000u) {
            h ^= g >> 24;
            h ^= g;
        }
    }
    return h;
}

}  // namespace

std::optional<Term> AtomTable::intern(std::string_view utf8) {
    uint32_t& slot = cache_slot(utf8);
    if (slot && blocks_[(slot - 1) / BLOCK][(slot - 1) % BLOCK].text == utf8) return make_atom(slot - 1);
    std::unique_lock lock(mutex_);
    if (auto it = index_.find(utf8); it != index_.end()) {
        slot = it->second + 1;
        return make_atom(it->second);
    }
    size_t n = count_.load(std::memory_order_relaxed);
    if (n >= limit()) {
        lock.unlock();  // the crash dump lists the atoms
        char slogan[80];
        std::snprintf(slogan, sizeof slogan, "no more index entries in atom_tab (max=%zu)", limit());
        dump_exit(slogan);
    }
    Entry*& block = blocks_[n / BLOCK];
    // Raw memory, each entry constructed when its atom is made: `new Entry[BLOCK]` wrote all
    // 4096 empty strings (128 KiB) when the first atom of a block came, most of which a short
    // run never uses (docs/benchmarks.md, "Issue 11: quick start-up"). Blocks live as long as
    // the program, as before.
    if (!block) block = static_cast<Entry*>(::operator new(BLOCK * sizeof(Entry)));
    bool ascii = std::all_of(utf8.begin(), utf8.end(), [](char c) { return uint8_t(c) < 0x80; });
    Entry& e = *new (&block[n % BLOCK]) Entry{std::string(utf8), ascii, hashpjw(utf8)};
    if (e.text.capacity() > std::string().capacity()) name_bytes_ += e.text.capacity() + 1;
    index_.emplace(std::string_view(e.text), uint32_t(n));
    count_.store(n + 1, std::memory_order_release);
    slot = uint32_t(n) + 1;
    return make_atom(uint32_t(n));
}

std::optional<Term> AtomTable::find(std::string_view utf8) const {
    uint32_t& slot = cache_slot(utf8);
    if (slot && blocks_[(slot - 1) / BLOCK][(slot - 1) % BLOCK].text == utf8) return make_atom(slot - 1);
    std::lock_guard lock(mutex_);
    if (auto it = index_.find(utf8); it != index_.end()) {
        slot = it->second + 1;
        return make_atom(it->second);
    }
    return std::nullopt;
}

AtomTable::Memory AtomTable::memory() const {
    std::lock_guard lock(mutex_);
    size_t n = count_.load(std::memory_order_relaxed);
    size_t blocks = (n + BLOCK - 1) / BLOCK;
    // An index node holds the key, the value, the next pointer and the cached hash.
    size_t node = sizeof(std::string_view) + sizeof(uint32_t) + 2 * sizeof(void*);
    size_t index = index_.bucket_count() * sizeof(void*) + index_.size() * node;
    return {blocks * BLOCK * sizeof(Entry) + name_bytes_ + index, n * sizeof(Entry) + name_bytes_ + index};
}

}  // namespace beam

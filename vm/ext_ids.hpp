// Pids, ports and references of other nodes (external ids), and the node of any id.
//
// An id is local when its node is this node: same name and same creation (vm/node_identity.hpp);
// local ids are immediates (pids, ports) or Sub::Ref boxes. Every other id is one of these
// boxes, whose payload words are all raw (sub_is_raw in vm/term.hpp): the GC and copy_term copy
// the header's arity in words and never read a word as a pointer. The node is an atom, an
// immediate, so copying it as raw data is exact.
//
//   ExtPid   [hdr ExtPid, arity 3][node atom][creation][id | serial << 32]
//   ExtPort  [hdr ExtPort, arity 3][node atom][creation][number, 64 bits (V4_PORT_EXT)]
//   ExtRef   [hdr ExtRef, arity 2+n][node atom][creation | n << 32][id 0]...[id n-1], n = 1..5
//
// A pid of another node keeps both 32-bit fields of NEW_PID_EXT (erts does), not a local pid's
// 15-bit id and 13-bit serial. A reference keeps its n id words as sent (NEWER_REFERENCE_EXT
// Len), id 0 first (least significant, printed last); erts compares and tests equality as if
// trailing zero words were absent, so [1,2,3] and [1,2,3,0,0] are equal (and print apart).
#pragma once

#include <cstdint>
#include <span>

#include "vm/heap.hpp"
#include "vm/node_identity.hpp"
#include "vm/term.hpp"

namespace beam {

inline constexpr size_t EXT_PID_WORDS = 4;
inline constexpr size_t EXT_PORT_WORDS = 4;
inline constexpr size_t EXT_REF_MAX_IDS = 5;  // erts' ERTS_MAX_REF_NUMBERS
inline constexpr size_t ext_ref_words(size_t n_ids) { return 3 + n_ids; }

inline bool is_ext_pid(Term t) { return is_boxed_sub(t, Sub::ExtPid); }
inline bool is_ext_port(Term t) { return is_boxed_sub(t, Sub::ExtPort); }
inline bool is_ext_ref(Term t) { return is_boxed_sub(t, Sub::ExtRef); }
// A pid, port or reference of another node (or of another creation of this node's name).
inline bool is_external_id(Term t) {
    if (!is_boxed(t)) return false;
    Sub s = header_sub(box_header(t));
    return s == Sub::ExtPid || s == Sub::ExtPort || s == Sub::ExtRef;
}

// Node and creation of an external id (any of the three).
inline Term ext_id_node(Term t) { return boxed_ptr(t)[1]; }
inline uint32_t ext_id_creation(Term t) { return uint32_t(boxed_ptr(t)[2].raw); }

inline Term make_ext_pid(TermAllocator& a, Term node, uint32_t creation, uint32_t id, uint32_t serial) {
    Term* hp = a.alloc(EXT_PID_WORDS);
    hp[0] = make_header(Sub::ExtPid, EXT_PID_WORDS - 1);
    hp[1] = node;
    hp[2] = Term{creation};
    hp[3] = Term{uint64_t(id) | uint64_t(serial) << 32};
    return make_boxed(hp);
}
inline uint32_t ext_pid_id(Term t) { return uint32_t(boxed_ptr(t)[3].raw); }
inline uint32_t ext_pid_serial(Term t) { return uint32_t(boxed_ptr(t)[3].raw >> 32); }

inline Term make_ext_port(TermAllocator& a, Term node, uint32_t creation, uint64_t number) {
    Term* hp = a.alloc(EXT_PORT_WORDS);
    hp[0] = make_header(Sub::ExtPort, EXT_PORT_WORDS - 1);
    hp[1] = node;
    hp[2] = Term{creation};
    hp[3] = Term{number};
    return make_boxed(hp);
}
inline uint64_t ext_port_number(Term t) { return boxed_ptr(t)[3].raw; }

// `ids` holds 1..EXT_REF_MAX_IDS words, id 0 first.
inline Term make_ext_ref(TermAllocator& a, Term node, uint32_t creation, std::span<const uint32_t> ids) {
    Term* hp = a.alloc(ext_ref_words(ids.size()));
    hp[0] = make_header(Sub::ExtRef, ext_ref_words(ids.size()) - 1);
    hp[1] = node;
    hp[2] = Term{uint64_t(creation) | uint64_t(ids.size()) << 32};
    for (size_t i = 0; i < ids.size(); ++i) hp[3 + i] = Term{ids[i]};
    return make_boxed(hp);
}
inline size_t ext_ref_len(Term t) { return size_t(boxed_ptr(t)[2].raw >> 32); }
inline uint32_t ext_ref_id(Term t, size_t i) { return uint32_t(boxed_ptr(t)[3 + i].raw); }

// The id words of any reference, id 0 first: a local one has three (vm/term_refs.hpp).
struct RefIds {
    uint32_t w[EXT_REF_MAX_IDS];
    size_t n;
};
inline RefIds ref_ids(Term ref) {
    RefIds r{};
    if (is_ext_ref(ref)) {
        r.n = ext_ref_len(ref);
        for (size_t i = 0; i < r.n; ++i) r.w[i] = ext_ref_id(ref, i);
    } else {
        r.n = 3;
        for (size_t i = 0; i < 3; ++i) r.w[i] = uint32_t(boxed_ptr(ref)[1 + i].raw);
    }
    return r;
}
// The id words that count for equality, order and internal hashing: trailing zeros dropped.
inline size_t ref_significant_len(const RefIds& r) {
    size_t n = r.n;
    while (n > 0 && r.w[n - 1] == 0) --n;
    return n;
}

// The node of any pid, port or reference: `self`'s name for a local one. node/1.
inline Term id_node(Term t, const NodeIdentity& self) { return is_external_id(t) ? ext_id_node(t) : self.name(); }
// Its creation: `self`'s for a local one.
inline uint32_t id_creation(Term t, const NodeIdentity& self) {
    return is_external_id(t) ? ext_id_creation(t) : self.creation();
}

}  // namespace beam

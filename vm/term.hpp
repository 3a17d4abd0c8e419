// Terms: one tagged 64-bit word, BEAM's layout.
//
//   Primary tag (bits 1..0)
//     00  header word (only inside heap objects, never a value in a register)
//     01  list: pointer to a cons cell (two words: head, tail) | 01
//     10  boxed: pointer to a header word | 10
//     11  immediate
//
//   Immediate-1 (bits 3..0, primary = 11)
//     0011  local pid        payload in bits 63..4
//     0111  local port       payload in bits 63..4
//     1011  immediate-2      see below
//     1111  small integer    signed 60-bit value in bits 63..4
//
//   Immediate-2 (bits 5..0, low four = 1011)
//     00 1011  atom           atom index in bits 63..6
//     01 1011  catch marker   code address in bits 63..6 (addresses < 2^57)
//     11 1011  special        payload 0 = [] (nil), 1 = the non-value
//
//   Header word (primary = 00): subtag in bits 5..2, arity (words that follow) in bits 63..6.
//
// Code pointers (continuation pointers on the stack) are word aligned, so they look like header
// words; the stack never holds a real header, so stack walkers and the GC tell them apart by tag.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>

namespace beam {

using Word = uint64_t;
using SWord = int64_t;

// A term is a plain word; the wrapper keeps it from mixing with sizes and indices silently.
struct Term {
    Word raw;

    constexpr Term() : raw(0x7B) {}  // the non-value
    constexpr explicit Term(Word w) : raw(w) {}
    constexpr bool operator==(const Term&) const = default;
};

namespace tag {
inline constexpr Word primary_mask = 0x3;
inline constexpr Word header = 0x0;
inline constexpr Word list = 0x1;
inline constexpr Word boxed = 0x2;
inline constexpr Word immed1 = 0x3;

inline constexpr Word immed1_mask = 0xF;
inline constexpr Word pid = 0x3;
inline constexpr Word port = 0x7;
inline constexpr Word immed2 = 0xB;
inline constexpr Word small = 0xF;

inline constexpr Word immed2_mask = 0x3F;
inline constexpr Word atom = 0x0B;
inline constexpr Word catch_ = 0x1B;
inline constexpr Word special = 0x3B;
}  // namespace tag

inline constexpr Term NIL{tag::special};
inline constexpr Term NON_VALUE{tag::special | (Word{1} << 6)};

// ---- small integers ----
inline constexpr SWord SMALL_MAX = (SWord{1} << 59) - 1;
inline constexpr SWord SMALL_MIN = -(SWord{1} << 59);

constexpr bool is_small(Term t) { return (t.raw & tag::immed1_mask) == tag::small; }
constexpr bool fits_small(SWord v) { return v >= SMALL_MIN && v <= SMALL_MAX; }
constexpr Term make_small(SWord v) { return Term{(Word(v) << 4) | tag::small}; }
constexpr SWord small_value(Term t) { return SWord(t.raw) >> 4; }

// ---- atoms ----
constexpr bool is_atom(Term t) { return (t.raw & tag::immed2_mask) == tag::atom; }
constexpr Term make_atom(uint32_t index) { return Term{(Word(index) << 6) | tag::atom}; }
constexpr uint32_t atom_index(Term t) { return uint32_t(t.raw >> 6); }

// ---- nil / non-value / catch ----
constexpr bool is_nil(Term t) { return t == NIL; }
constexpr bool is_value(Term t) { return t != NON_VALUE; }
constexpr bool is_non_value(Term t) { return t == NON_VALUE; }
constexpr bool is_catch(Term t) { return (t.raw & tag::immed2_mask) == tag::catch_; }
inline Term make_catch(const Word* handler) { return Term{(Word(reinterpret_cast<uintptr_t>(handler)) << 6) | tag::catch_}; }
inline const Word* catch_address(Term t) { return reinterpret_cast<const Word*>(uintptr_t(t.raw >> 6)); }

// ---- pids and ports (local) ----
constexpr bool is_local_pid(Term t) { return (t.raw & tag::immed1_mask) == tag::pid; }
constexpr Term make_local_pid(uint64_t number) { return Term{(number << 4) | tag::pid}; }
constexpr uint64_t local_pid_number(Term t) { return t.raw >> 4; }
// A pid's number is OTP's pid data: a 15-bit id and the serial above it, printed <0.Id.Serial>;
// order (by the whole number) and the hashes (of the id only) follow from that, as in erts.
inline constexpr unsigned PID_ID_BITS = 15;
constexpr uint64_t pid_id(uint64_t number) { return number & ((uint64_t{1} << PID_ID_BITS) - 1); }
constexpr uint64_t pid_serial(uint64_t number) { return number >> PID_ID_BITS; }
constexpr bool is_local_port(Term t) { return (t.raw & tag::immed1_mask) == tag::port; }
constexpr Term make_local_port(uint64_t number) { return Term{(number << 4) | tag::port}; }
constexpr uint64_t local_port_number(Term t) { return t.raw >> 4; }

constexpr bool is_immediate(Term t) { return (t.raw & tag::primary_mask) == tag::immed1; }

// ---- lists ----
constexpr bool is_list(Term t) { return (t.raw & tag::primary_mask) == tag::list; }
inline Term make_list(const Term* cell) { return Term{reinterpret_cast<Word>(cell) | tag::list}; }
inline Term* list_ptr(Term t) { return reinterpret_cast<Term*>(t.raw - tag::list); }
inline Term& head(Term t) { return list_ptr(t)[0]; }
inline Term& tail(Term t) { return list_ptr(t)[1]; }

// ---- boxed objects ----
constexpr bool is_boxed(Term t) { return (t.raw & tag::primary_mask) == tag::boxed; }
inline Term make_boxed(const Term* obj) { return Term{reinterpret_cast<Word>(obj) | tag::boxed}; }
inline Term* boxed_ptr(Term t) { return reinterpret_cast<Term*>(t.raw - tag::boxed); }

// Header subtags. The order matters only to the GC and printer; it follows BEAM's.
enum class Sub : uint8_t {
    Tuple = 0,
    MatchState = 1,
    PosBig = 2,
    NegBig = 3,
    Ref = 4,
    Fun = 5,
    Float = 6,
    Export = 7,
    RefcBin = 8,
    HeapBin = 9,
    SubBin = 10,
    Map = 11,
    ExtPid = 12,
    ExtPort = 13,
    ExtRef = 14,
    HashMap = 15,  // reserved: hash-array-mapped-trie node (maps above 32 keys)
};

constexpr bool is_header(Term t) { return (t.raw & tag::primary_mask) == tag::header; }
constexpr Term make_header(Sub sub, Word arity) { return Term{(arity << 6) | (Word(sub) << 2)}; }
constexpr Sub header_sub(Term h) { return Sub((h.raw >> 2) & 0xF); }
constexpr Word header_arity(Term h) { return h.raw >> 6; }

inline Term box_header(Term t) { return boxed_ptr(t)[0]; }
inline bool is_boxed_sub(Term t, Sub s) { return is_boxed(t) && header_sub(box_header(t)) == s; }

// Objects whose payload words are raw data (not terms): the GC copies them without scanning.
constexpr bool sub_is_raw(Sub s) {
    return s == Sub::PosBig || s == Sub::NegBig || s == Sub::Float || s == Sub::Ref || s == Sub::HeapBin ||
           s == Sub::RefcBin || s == Sub::Export || s == Sub::ExtPid || s == Sub::ExtPort || s == Sub::ExtRef;
}

// ---- tuples: [header arity=N][e1]...[eN] ----
inline bool is_tuple(Term t) { return is_boxed_sub(t, Sub::Tuple); }
inline Word tuple_arity(Term t) { return header_arity(box_header(t)); }
// A tuple of n elements: its header is one known word, so one comparison tests kind and size.
inline bool is_tuple_of_arity(Term t, Word n) { return is_boxed(t) && box_header(t) == make_header(Sub::Tuple, n); }
inline Term* tuple_elems(Term t) { return boxed_ptr(t) + 1; }  // 0-based
inline Term& tuple_elem(Term t, Word i) { return boxed_ptr(t)[1 + i]; }

// ---- floats: [header arity=1][double bits] ----
inline constexpr Word FLOAT_WORDS = 2;
inline bool is_float(Term t) { return is_boxed_sub(t, Sub::Float); }
inline double float_value(Term t) {
    double d;
    std::memcpy(&d, boxed_ptr(t) + 1, sizeof d);
    return d;
}
inline Term make_float_at(Term* hp, double d) {
    hp[0] = make_header(Sub::Float, 1);
    std::memcpy(static_cast<void*>(hp + 1), &d, sizeof d);
    return make_boxed(hp);
}

// ---- bignums: [header arity=limbs][limb 0 (least significant)]...; sign is the subtag ----
inline bool is_big(Term t) {
    if (!is_boxed(t)) return false;
    Sub s = header_sub(box_header(t));
    return s == Sub::PosBig || s == Sub::NegBig;
}
inline bool is_integer(Term t) { return is_small(t) || is_big(t); }
inline bool is_number(Term t) { return is_integer(t) || is_float(t); }

// ---- references: [header arity=3][id0][id1][id2] (raw words) ----
inline constexpr Word REF_WORDS = 4;
inline bool is_ref(Term t) { return is_boxed_sub(t, Sub::Ref) || is_boxed_sub(t, Sub::ExtRef); }
inline bool is_pid(Term t) { return is_local_pid(t) || is_boxed_sub(t, Sub::ExtPid); }
inline bool is_port(Term t) { return is_local_port(t) || is_boxed_sub(t, Sub::ExtPort); }

// ---- maps: see vm/map.hpp. Funs and exports: see vm/fun.hpp. Binaries: vm/binary.hpp ----
inline bool is_map(Term t) { return is_boxed_sub(t, Sub::Map) || is_boxed_sub(t, Sub::HashMap); }
inline bool is_any_fun(Term t) { return is_boxed_sub(t, Sub::Fun) || is_boxed_sub(t, Sub::Export); }

// ---- list helpers ----
inline Term cons_at(Term* hp, Term h, Term t) {
    hp[0] = h;
    hp[1] = t;
    return make_list(hp);
}

}  // namespace beam

template <>
struct std::hash<beam::Term> {
    size_t operator()(beam::Term t) const noexcept { return std::hash<beam::Word>{}(t.raw); }
};

// Small helpers shared by the BIF families: booleans, tuples, lists and strings built on a
// process (or any TermAllocator). Kept header-light so each family reads on its own.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/heap.hpp"
#include "vm/node_identity.hpp"
#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

inline Term make_bool(bool b) { return b ? am::true_ : am::false_; }
inline bool is_boolean_atom(Term t) { return t == am::true_ || t == am::false_; }

inline Term make_float(TermAllocator& a, double d) { return make_float_at(a.alloc(FLOAT_WORDS), d); }

Term make_tuple(TermAllocator& a, std::initializer_list<Term> elems);
Term make_tuple_from(TermAllocator& a, const Term* elems, size_t n);

// Length of a proper list; nullopt if `t` is not one.
std::optional<size_t> proper_list_length(Term t);
// Appends the elements of a proper list to `out`; false if the list is improper.
bool list_elements(Term list, std::vector<Term>& out);
// [e0, e1, ... | tail]
Term make_list_from(TermAllocator& a, const Term* elems, size_t n, Term tail = NIL);

// A number as a double; nullopt for non-numbers and for integers too large for a double.
std::optional<double> number_to_double(Term t);

// Characters of a list of code points (0..0x10FFFF, no surrogates) as UTF-8.
std::optional<std::string> char_list_to_utf8(Term list);
// Bytes of a list of integers 0..255.
std::optional<std::string> byte_list(Term list);
void append_utf8(std::string& out, uint32_t cp);
// Decodes UTF-8 into code points; false on malformed input.
bool decode_utf8(std::string_view s, std::vector<uint32_t>& out);
// A list of small integers, one per byte (latin-1 string).
Term make_byte_list(TermAllocator& a, const uint8_t* bytes, size_t n, Term tail = NIL);
inline Term make_string(TermAllocator& a, std::string_view s) {
    return make_byte_list(a, reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// badarg from erlang:Name(Args...) whose error_info carries `cause` (erts' EXF_HAS_EXT_INFO
// with p->fvalue set, e.g. badopt for an unknown option), as erl_erts_errors explains it.
// Returns NON_VALUE: the BIF returns it as its result.
Term badarg_with_cause(Process* p, std::string_view name, const Term* args, unsigned arity, Term cause);

// The next value of erlang:unique_integer/0,1 (bifs/misc.cpp), shared with
// enif_make_unique_integer: positive and strictly increasing across the VM.
uint64_t next_unique_integer();
// erlang:unique_integer/1's value for those options (and enif_make_unique_integer's): with
// monotonic, from the one counter both share; else next_unique_integer().
Term make_unique_integer(TermAllocator& a, bool positive, bool monotonic);
// The counter behind unique_integer([monotonic]): the last count taken (erts_debug's
// unique_monotonic_integer_state), and setting it (the next call takes count + 1).
uint64_t unique_monotonic_state();
void set_unique_monotonic_state(uint64_t count);

// This node's identity as `p` sees it: its VM's (VM::node); nonode@nohost/0 for a process
// without a VM (unit tests of the BIFs).
const NodeIdentity& this_node(const Process* p);

}  // namespace beam

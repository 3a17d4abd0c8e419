// Off-heap objects: heap objects that hold a count on memory outside every heap, and so sit on
// their owner's off-heap list (a process, a message buffer, a literal area) until the owner
// collects or frees them. Two kinds:
//   RefcBin   [hdr][byte size][BinaryBlob*][next]              (vm/binary.hpp)
//   magic ref [hdr][id0][id1][id2][MagicObject*][next]         (vm/term_magic_ref.hpp)
// The list is linked through the `next` word of each, a raw pointer or null.
#pragma once

#include "vm/term.hpp"

namespace beam {

// The header of an off-heap object, also after the GC has left a forwarding pointer in word 0
// (the rest of the old copy is intact until its block is freed).
inline Term offheap_header(const Term* obj) { return is_header(obj[0]) ? obj[0] : boxed_ptr(obj[0])[0]; }
inline size_t offheap_link_word(const Term* obj) {
    return header_sub(offheap_header(obj)) == Sub::RefcBin ? 3 : 5;
}
inline Term* offheap_next(const Term* obj) { return reinterpret_cast<Term*>(obj[offheap_link_word(obj)].raw); }
inline void set_offheap_next(Term* obj, Term* next) { obj[offheap_link_word(obj)] = Term{reinterpret_cast<Word>(next)}; }
// True for the objects that go on an off-heap list.
inline bool is_offheap_header(Term h) {
    return header_sub(h) == Sub::RefcBin || (header_sub(h) == Sub::Ref && header_arity(h) == 5);
}

// The memory the object holds outside the heap, in words rounded up: a RefcBin's byte size, a
// magic object's byte_size(). What OTP's binary virtual heaps count.
size_t offheap_words(const Term* obj);

// A new copy of the object holds a count of its own (message copies, literal copies).
void offheap_retain(const Term* obj);
// Drops the count this copy holds.
void offheap_release(const Term* obj);
// Drops every count held by a list (process exit, freed message buffer or literal area).
void offheap_release_list(Term* list);

}  // namespace beam

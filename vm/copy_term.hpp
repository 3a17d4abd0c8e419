// Copying a term out of one process into memory another process will own (messages, spawn
// arguments, exit reasons). As in OTP, sharing inside the term is not preserved: a subterm
// referenced twice is copied twice. Literals (module constants, outside any process heap) are
// copied too, so a message never points into code that may be purged.
#pragma once

#include "vm/heap.hpp"

namespace beam {

class Process;

// Words a copy of `t` needs.
size_t copy_size(Term t);

// A self-contained heap fragment holding one copied term, ready to be adopted by a receiver.
// RefcBins inside it are retained and listed in `offheap` (linked through their word 3).
struct MessageBuffer {
    HeapFragment* fragment = nullptr;  // nullptr when the term is immediate
    Term term = NIL;
    Term* offheap = nullptr;
};

MessageBuffer copy_to_buffer(Term t);
// Moves the buffer's memory into `p` (fragments and off-heap list); returns the term, now
// owned by `p`. The buffer is empty afterwards.
Term adopt_buffer(Process* p, MessageBuffer& buf);
// Takes the buffer's term into p's memory (and frees the buffer at once) when it holds no
// off-heap binary: onto the heap when it fits there, else, if small, into the fragment
// Process::alloc bumps into; otherwise adopts it as adopt_buffer does. Messages taken in this
// way leave no fragment of their own for the next collection to search. p must not be running
// (its heap top is p->htop).
Term take_buffer(Process* p, MessageBuffer& buf);
// Copies `t` straight into the memory of p, which is not running and which the caller holds
// (a sender that borrowed it, scheduler/signals.cpp): onto its heap when it fits, else into
// the fragment Process::alloc bumps into. Binaries in it count in p's binary virtual heap,
// as adopt_buffer counts them.
Term copy_to_process(Process* p, Term t);
// Frees a buffer that will never be adopted (receiver died).
void discard_buffer(MessageBuffer& buf);

// Copies `t` onto an allocator directly (spawn arguments into a new process's heap).
Term copy_term(Term t, TermAllocator& a);
// Copies `t` into `to`, which has room for copy_size(t) words, laid out so that copy_flat can
// copy it on: the copy's pointers all point inside those words. Off-heap objects in the copy
// are retained and listed in *offheap (linked through their word 3). Returns the copy.
Term copy_term_into(Term t, Term* to, Term** offheap);
// Copies a term laid out by copy_term_into in `words` words from `src` onto `a`: one block
// copy, then every pointer moved by the distance (no walk of the term's graph). Off-heap
// objects in it are retained and linked to `a`. How an ETS lookup copies an object out, and a
// receiver a message from its buffer (take_buffer).
Term copy_flat(Term t, const Term* src, size_t words, TermAllocator& a);
// The same, keeping the sharing inside `t` (a subterm referenced twice is copied once), as erts
// copies a persistent term. *words_out (if given) receives the words of the copy.
Term copy_term_shared(Term t, TermAllocator& a, size_t* words_out = nullptr);

}  // namespace beam

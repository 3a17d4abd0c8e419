// Terms as erts writes them into a crash dump (erts/emulator/beam/erl_process_dump.c), in the
// form crashdump_viewer decodes (lib/observer/src/crashdump_viewer.erl, parse_term and
// parse_heap_term):
//   element   H<addr> (a list or boxed object), A<len>:<name>, I<int>, P<pid>, p<port>, N ([])
//   heap line <ADDR>:l<head>|<tail>     a cons cell
//             <ADDR>:t<ARITY>:<e>,...   a tuple (arity in hex)
//             <ADDR>:Yh<SIZE>:<base64>  a binary (any kind: beamvm writes its bytes)
//             <ADDR>:E<SIZE>:<base64>   anything else, in the external term format
// erts writes floats (F), bignums (B), maps (Mf/Mh) and refc binaries (Yc, with =binary
// sections) in forms of their own; the external format is one the viewer decodes for every
// term, and beamvm's hash maps are laid out unlike erts' (vm/map.hpp), so it writes those
// that way. Each object is written once per section, by its address.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "crashdump/dump_output.hpp"
#include "vm/term.hpp"

namespace beam {
class VM;
}

namespace beam::crashdump {

// One word as a stack slot, dictionary line or heap cell element.
std::string element_text(Term t);
// "m:f/a + off" for a code address (off in bytes from the function's start), as erts names
// return addresses and program counters; "unknown function" outside loaded code.
std::string code_location(VM& vm, const void* pc);

// Writes the heap objects reachable from the roots given, once each.
class HeapWriter {
public:
    explicit HeapWriter(DumpOutput& out) : out_(out) {}
    void add_root(Term t) {
        if (is_list(t) || is_boxed(t)) pending_.push_back(t);
    }
    void write();
    // Objects written past this many, the rest is left out (the viewer then shows the
    // process's heap as incomplete): a runaway walk of a damaged heap ends.
    static constexpr size_t MAX_OBJECTS = size_t(1) << 22;

private:
    void write_boxed(Term t, Term* p);
    DumpOutput& out_;
    std::vector<Term> pending_;
    std::unordered_set<const void*> seen_;
};

}  // namespace beam::crashdump

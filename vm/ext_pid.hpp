// A pid of another incarnation of this node: the node name is ours (nonode@nohost, the only
// one without distribution) but the creation is not. binary_to_term makes one when an
// encoded pid carries another creation, as OTP does (an external pid); no process ever has
// it, so it is always dead: monitor/2 answers noproc at once, messages to it are dropped.
// bs/monitor_SUITE otp_5827 builds one from term_to_binary(self()) with the creation changed;
// decoding it as the live local pid made erlang:monitor/2 wait for a DOWN that never came.
//
// Layout: [hdr ExtPid, arity 3][node atom][number: id | serial << 32, as a local pid's][creation]
#pragma once

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

inline constexpr size_t EXT_PID_WORDS = 4;
// The creation of this node's own pids, ports and references (erl -noshell writes 0).
inline constexpr uint32_t LOCAL_CREATION = 0;

inline Term make_ext_pid(TermAllocator& a, Term node, uint64_t number, uint32_t creation) {
    Term* hp = a.alloc(EXT_PID_WORDS);
    hp[0] = make_header(Sub::ExtPid, EXT_PID_WORDS - 1);
    hp[1] = node;
    hp[2] = Term{number};
    hp[3] = Term{creation};
    return make_boxed(hp);
}

inline Term ext_pid_node(Term t) { return boxed_ptr(t)[1]; }
inline uint64_t ext_pid_number(Term t) { return boxed_ptr(t)[2].raw; }
inline uint32_t ext_pid_creation(Term t) { return uint32_t(boxed_ptr(t)[3].raw); }

}  // namespace beam

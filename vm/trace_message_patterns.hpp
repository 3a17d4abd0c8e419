// trace_pattern(send | 'receive', MatchSpec | true | false, []): which send and receive events
// of processes traced for them are reported. `true` (the default) reports every one, `false`
// none; a match specification filters send events on [Receiver, Msg], and its body's
// message/1 value is added to the trace message as erl adds it. A process silent at the time
// (after a silent/1 action) reports nothing while a specification is set, as on erl.
// Match specifications for 'receive' (head [Node, Sender, Msg]) need the sender of every
// message, which beamvm's signals do not carry: they raise not_implemented.
#pragma once

#include <atomic>
#include <memory>

#include "vm/atomic_shared_ptr.hpp"
#include "vm/term.hpp"

namespace beam {

class Process;
struct TraceMatchSpec;

struct MessageTracePattern {
    std::atomic<bool> on{true};
    AtomicSharedPtr<const TraceMatchSpec> spec;  // null: every event
};

// Whether p's send of `msg` to `to` is reported; *extra is the message/1 value to add, or
// NON_VALUE for none. Called only for processes traced for send.
bool send_trace_wanted(Process* p, Term to, Term msg, Term* extra);
// Whether a receive event is reported (trace_pattern('receive', false, []) turns them off).
bool receive_trace_wanted(Process* p);
// Whether a specification calls caller() or caller_line(), which message patterns refuse.
bool spec_uses_caller(Term spec);
// trace_info(send | 'receive', match_spec): true, false or the specification.
Term message_pattern_info(Process* p, const MessageTracePattern& pattern);

}  // namespace beam

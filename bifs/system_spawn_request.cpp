// spawn_request (OTP 23+): an asynchronous spawn whose result comes as a message,
// {ReplyTag, ReqId, ok, Pid} or {ReplyTag, ReqId, error, Reason}. OTP's erlang.beam turns
// every spawn_request/1..5 into erts_internal:spawn_request/4 (this node) or
// erts_internal:dist_spawn_request/4 (another node), which are native here.
//
// On this node the spawn completes inside the call, so the reply is already in the caller's
// mailbox when spawn_request returns, ahead of any DOWN or EXIT from the child, and no
// request is ever outstanding: spawn_request_abandon/1 answers false, as OTP does for a
// local request. A request to another node is dist/spawn_remote.cpp's.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_spawn.hpp"
#include "dist/spawn_remote.hpp"
#include "vm/interp_support.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term reply_tag(const SpawnOpts& o) { return is_value(o.reply_tag) ? o.reply_tag : atom("spawn_reply"); }

void reply(Process* p, const SpawnOpts& o, Term ref, Term status, Term result) {
    // The token the child gave its reply (vm/seq_trace.hpp); the runtime's otherwise.
    Term seq_token = am::undefined;
    if (p->seq_trace) [[unlikely]] {
        seq_token = p->seq_trace->spawn_reply_token;
        p->seq_trace->spawn_reply_token = NIL;
    }
    p->mailbox_push(make_tuple(*p, {reply_tag(o), ref, status, result}), seq_token);
}

// erts_internal:spawn_request(M, F, Args, Opts): ReqId; or the atom badarg (bad M, F, Args)
// or badopt (Opts not a proper list), which erlang.beam raises as badarg. A bad option in a
// proper list is answered by an error reply.
Term erts_spawn_request_4(Process* p, const Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !proper_list_length(a[2])) return am::badarg;
    SpawnOpts o(*p->vm);
    int parsed = parse_spawn_opts(a[3], &o, true);
    if (parsed > 0) return atom("badopt");
    Term ref = make_new_ref(*p);
    if (parsed < 0) {
        if (o.reply_error) reply(p, o, ref, atom("error"), atom("badopt"));
        return ref;
    }
    if (p->seq_trace) [[unlikely]] o.request_call = make_tuple(*p, {a[0], a[1], a[2], a[3]});
    Term r = spawn_mfa(p, a[0], a[1], a[2], o, ref);
    if (is_non_value(r)) return r;
    Term pid = is_tuple(r) ? tuple_elem(r, 0) : r;
    if (o.reply_success) reply(p, o, ref, am::ok, pid);
    return ref;
}

// true for a request to another node still waiting for its reply: the reply will be dropped
// (dist/spawn_remote.cpp). A request on this node has always completed (see the top).
Term spawn_request_abandon_1(Process* p, const Term* a) {
    if (!is_boxed_sub(a[0], Sub::Ref)) return p->badarg();
    if (!p->vm->node.is_alive()) return am::false_;
    return make_bool(dist::abandon_spawn(p, a[0]));
}

const BifSpec table[] = {
    {"erts_internal", "spawn_request", 4, &erts_spawn_request_4},
    {"erlang", "spawn_request_abandon", 1, &spawn_request_abandon_1},
};

}  // namespace

std::span<const BifSpec> spawn_request_bifs() { return table; }

}  // namespace beam

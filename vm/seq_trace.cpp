// Sequential tracing: tokens, their serial numbers and the trace messages (vm/seq_trace.hpp).
// The serial rules are OTP's (erl_trace.c seq_trace_update_serial, beam_jit_common.cpp
// remove_message): each send or print by a token holder takes the next value of the process's
// clock as the token's serial and its last received serial as lastcnt; a receive takes the
// message's token and moves lastcnt, and the clock if behind, to that token's serial.
#include "vm/seq_trace.hpp"

#include <vector>

#include "bifs/bif_util.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/signals.hpp"
#include "vm/copy_term.hpp"
#include "vm/ext_term.hpp"
#include "vm/heap.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// Token fields.
constexpr size_t T_FLAGS = 0, T_LABEL = 1, T_SERIAL = 2, T_FROM = 3, T_LASTCNT = 4;

uint32_t token_flags(Term token) { return uint32_t(small_value(tuple_elem(token, T_FLAGS))); }

Term make_token(Process* p, Term flags, Term label, Term serial, Term from, Term lastcnt) {
    return make_tuple(*p, {flags, label, serial, from, lastcnt});
}

uint64_t current_epoch(const Process* p) { return p->vm->seq_trace.epoch.load(std::memory_order_acquire); }

// reset_seq_trace happened since `st` was last looked at: drop every token it holds.
void apply_reset(SeqTrace& st, uint64_t epoch) {
    st.epoch = epoch;
    st.token = NIL;
    st.clock = 0;
    st.lastcnt = 0;
    for (Term& t : st.tokens)
        if (is_tuple(t)) t = NIL;
}

// The tracer if one is set and can receive: OTP's "enabled" check on the sequential tracer.
TracerRef live_tracer(VM& vm) {
    TracerRef t = vm.seq_trace.tracer.load(std::memory_order_acquire);
    if (t && !tracer_alive(vm, *t)) return nullptr;
    return t;
}

// The timestamp a token's flags ask for: now, then strict monotonic, then monotonic, as erl
// picks when several are set.
Term seq_timestamp(TermAllocator& a, uint32_t flags) {
    if (flags & seq_flag::NOW_TIMESTAMP) return trace_timestamp(a, trace_flag::TIMESTAMP);
    if (flags & seq_flag::STRICT_MONOTONIC_TIMESTAMP) return trace_timestamp(a, trace_flag::STRICT_MONOTONIC_TIMESTAMP);
    if (flags & seq_flag::MONOTONIC_TIMESTAMP) return trace_timestamp(a, trace_flag::MONOTONIC_TIMESTAMP);
    return NON_VALUE;
}

// {seq_trace, Label, {Type, {LastCnt, Serial}, From, To, Msg}[, Ts]} to the sequential tracer,
// if `token` asks for events of `type`, unless the process erl checks (`about`) is sensitive.
void output(VM& vm, const Process* about, Term token, uint32_t type, Term type_atom, Term to, Term msg) {
    if (token == NIL || is_sensitive(about) || !(token_flags(token) & type)) return;
    TracerRef tracer = live_tracer(vm);
    if (!tracer) return;
    LiteralArea scratch;
    Term counts = make_tuple(scratch, {tuple_elem(token, T_LASTCNT), tuple_elem(token, T_SERIAL)});
    Term info = make_tuple(scratch, {type_atom, counts, tuple_elem(token, T_FROM), to, msg});
    Term ts = seq_timestamp(scratch, token_flags(token));
    Term label = tuple_elem(token, T_LABEL);
    Term out = is_value(ts) ? make_tuple(scratch, {atom("seq_trace"), label, info, ts})
                            : make_tuple(scratch, {atom("seq_trace"), label, info});
    Term dest = tracer->destination();
    if (is_pid(dest)) {
        post_message(vm, dest, out);
    } else if (is_port(dest)) {
        std::vector<uint8_t> bytes;
        if (encode_external(out, bytes, {.node = &vm.node})) port_command(vm, dest, bytes.data(), bytes.size());
    }
}

void output(Process* p, Term token, uint32_t type, Term type_atom, Term to, Term msg) {
    output(*p->vm, p, token, type, type_atom, to, msg);
}

// OTP's seq_trace_update_serial: false (token unchanged) if there is no token, or a tracer
// is set that can no longer receive.
bool update_serial(Process* p, SeqTrace& st) {
    if (st.token == NIL) return false;
    VM& vm = *p->vm;
    if (vm.seq_trace.tracer.load(std::memory_order_acquire) && !live_tracer(vm)) return false;
    st.clock++;
    st.token = make_token(p, tuple_elem(st.token, T_FLAGS), tuple_elem(st.token, T_LABEL), make_small(SWord(st.clock)),
                          p->pid, make_small(SWord(st.lastcnt)));
    return true;
}

// A token to change: a new one {0, 0, 0, Self, LastCnt} if the process has none.
void ensure_token(Process* p, SeqTrace& st) {
    if (st.token != NIL) return;
    st.token = make_token(p, make_small(0), make_small(0), make_small(0), p->pid, make_small(SWord(st.lastcnt)));
}

// The flag a seq_trace/2 or seq_trace_info/1 item names, 0 for none.
uint32_t flag_of(Term item) {
    if (item == atom("send")) return seq_flag::SEND;
    if (item == atom("receive")) return seq_flag::RECEIVE;
    if (item == atom("print")) return seq_flag::PRINT;
    if (item == atom("timestamp")) return seq_flag::NOW_TIMESTAMP;
    if (item == atom("strict_monotonic_timestamp")) return seq_flag::STRICT_MONOTONIC_TIMESTAMP;
    if (item == atom("monotonic_timestamp")) return seq_flag::MONOTONIC_TIMESTAMP;
    return 0;
}

Term with_field(Process* p, Term token, size_t field, Term value) {
    Term e[5];
    for (size_t i = 0; i < 5; ++i) e[i] = i == field ? value : tuple_elem(token, i);
    return make_token(p, e[0], e[1], e[2], e[3], e[4]);
}

}  // namespace

SeqTrace& seq_state(Process* p) {
    uint64_t epoch = current_epoch(p);
    if (!p->seq_trace) {
        p->seq_trace = std::make_unique<SeqTrace>();
        p->seq_trace->epoch = epoch;
        p->seq_trace->tokens.assign(p->mailbox.size(), am::undefined);
    } else if (p->seq_trace->epoch != epoch) {
        apply_reset(*p->seq_trace, epoch);
    }
    return *p->seq_trace;
}

Term seq_current_token(const Process* p) {
    const SeqTrace* st = p->seq_trace.get();
    if (!st || st->epoch != current_epoch(p)) return NIL;
    return st->token;
}

Term seq_trace_outgoing(Process* p, Term dest, Term shown_to, Term msg) {
    SeqTrace& st = seq_state(p);
    if (st.token == NIL) return NIL;
    // A message to no process goes nowhere: erl neither counts nor reports it.
    if (dest != p->pid) {
        Process* q = p->vm->procs.lookup(dest);
        if (!q) return NIL;
        ProcessTable::release(q);
    }
    if (update_serial(p, st)) output(p, st.token, seq_flag::SEND, atom("send"), shown_to, msg);
    return st.token;
}

void seq_trace_to_port(Process* p, Term port, Term msg) {
    SeqTrace& st = seq_state(p);
    if (update_serial(p, st)) output(p, st.token, seq_flag::SEND, atom("send"), port, msg);
}

void seq_fill_signal(Process* p, Signal* s, Term msg, Term token) {
    if (token == NIL) {
        s->seq = seq_kind::NO_TOKEN;
        s->data = copy_to_buffer(msg);
        return;
    }
    LiteralArea scratch;
    s->seq = seq_kind::TOKEN;
    s->data = copy_to_buffer(make_tuple(scratch, {msg, token, make_small(SWord(current_epoch(p)))}));
}

void seq_post_message(Process* p, Term dest, Term msg, Term token) {
    auto* s = new Signal{SignalKind::Message};
    seq_fill_signal(p, s, msg, token);
    if (!deliver_signal(*p->vm, dest, s)) release_signal(s);
}

void seq_trace_spawn(Process* parent, Process* child, Term initial, Term opts, Term tag, Term ref, bool async) {
    SeqTrace& ps = seq_state(parent);
    ps.spawn_reply_token = NIL;
    if (ps.token == NIL) return;
    update_serial(parent, ps);
    Term args = tuple_elem(initial, 2);
    SWord arity = 0;
    for (Term l = args; is_list(l); l = tail(l)) ++arity;
    LiteralArea scratch;
    Term mfa = make_tuple(scratch, {tuple_elem(initial, 0), tuple_elem(initial, 1), make_small(arity)});
    Term gl = parent->group_leader == NIL ? parent->pid : parent->group_leader;
    Term request = make_tuple(scratch, {atom("spawn_request"), ref, parent->pid, gl, mfa, opts, tag, args});
    output(parent, ps.token, seq_flag::SEND, atom("send"), child->pid, request);
    output(parent, ps.token, seq_flag::RECEIVE, atom("receive"), child->pid, request);
    // The child starts from the request's token, as if it had received it.
    SeqTrace& cs = seq_state(child);
    cs.token = copy_term(ps.token, *child);
    cs.clock = cs.lastcnt = uint64_t(small_value(tuple_elem(ps.token, T_SERIAL)));
    update_serial(child, cs);
    Term reply = make_tuple(scratch, {tag, ref, am::ok, child->pid});
    output(child, cs.token, seq_flag::SEND, atom("send"), parent->pid, reply);
    if (async) {
        ps.spawn_reply_token = copy_term(cs.token, *parent);
        return;
    }
    // spawn/1..4 and friends: the reply is not a message, but erl reports it as received. The
    // parent's counters then take the serial as OTP 25.2.3 stores it: the tagged word of the
    // small integer (erl_process.c reads SEQ_TRACE_T_SERIAL without unsigned_val), i.e.
    // serial * 16 + 15. Observable in every later serial, so beamvm does the same.
    uint64_t serial = uint64_t(small_value(tuple_elem(cs.token, T_SERIAL)));
    ps.lastcnt = ps.clock = serial << 4 | 0xF;
    output(parent, cs.token, seq_flag::RECEIVE, atom("receive"), parent->pid, reply);
}

void seq_link_exit(Process* p, Term linked, Term reason) {
    VM& vm = *p->vm;
    SeqTrace& st = seq_state(p);
    if (st.token == NIL || !is_pid(linked)) {
        send_exit_signal(vm, p->pid, linked, reason, true);
        return;
    }
    if (update_serial(p, st)) {
        // erl reports an exit signal for the receiver: not if it is sensitive or exiting.
        if (Process* q = vm.procs.lookup(linked)) {
            if (!(q->sched.state.load(std::memory_order_acquire) & run_state::EXITED)) {
                LiteralArea scratch;
                output(vm, q, st.token, seq_flag::SEND, atom("send"), linked,
                       make_tuple(scratch, {am::EXIT, p->pid, reason}));
            }
            ProcessTable::release(q);
        }
    }
    LiteralArea scratch;
    auto* s = new Signal{SignalKind::Exit};
    s->from = p->pid;
    s->linked = true;
    s->seq = seq_kind::TOKEN;
    s->data = copy_to_buffer(make_tuple(scratch, {reason, st.token, make_small(SWord(st.epoch))}));
    if (!deliver_signal(vm, linked, s)) release_signal(s);
}

Term seq_trace_arrival(Process* p, uint8_t kind, Term data, Term& token) {
    if (kind == seq_kind::NO_TOKEN) {
        token = NIL;
        return data;
    }
    if (kind != seq_kind::TOKEN) {
        token = am::undefined;
        return data;
    }
    // The state exists before the message joins the mailbox, so its token lines up.
    SeqTrace& st = seq_state(p);
    Term epoch = tuple_elem(data, 2);
    token = uint64_t(small_value(epoch)) == st.epoch ? tuple_elem(data, 1) : NIL;
    return tuple_elem(data, 0);
}

void seq_trace_receive(Process* p, size_t index) {
    SeqTrace& st = seq_state(p);
    if (index >= st.tokens.size()) return;
    Term token = st.tokens[index];
    if (token == NIL) {
        st.token = NIL;
    } else if (is_tuple(token)) {
        st.token = token;
        uint64_t serial = uint64_t(small_value(tuple_elem(token, T_SERIAL)));
        st.lastcnt = serial;
        if (st.clock < serial) st.clock = serial;
        output(p, token, seq_flag::RECEIVE, atom("receive"), p->pid, p->mailbox[index]);
    }
}

Term seq_trace_set(Process* p, Term what, Term value) {
    if (!is_atom(what)) return NON_VALUE;
    if (uint32_t flag = flag_of(what)) {
        if (value != am::true_ && value != am::false_) return NON_VALUE;
        SeqTrace& st = seq_state(p);
        ensure_token(p, st);
        uint32_t flags = token_flags(st.token);
        Term old = make_bool(flags & flag);
        flags = value == am::true_ ? flags | flag : flags & ~flag;
        st.token = with_field(p, st.token, T_FLAGS, make_small(flags));
        return old;
    }
    if (what == atom("label")) {
        SeqTrace& st = seq_state(p);
        ensure_token(p, st);
        Term old = tuple_elem(st.token, T_LABEL);
        st.token = with_field(p, st.token, T_LABEL, value);
        return old;
    }
    if (what == atom("serial")) {
        if (!is_tuple(value) || tuple_arity(value) != 2) return NON_VALUE;
        Term lastcnt = tuple_elem(value, 0), serial = tuple_elem(value, 1);
        if (!is_small(lastcnt) || !is_small(serial)) return NON_VALUE;
        SeqTrace& st = seq_state(p);
        ensure_token(p, st);
        Term old = make_tuple(*p, {tuple_elem(st.token, T_LASTCNT), tuple_elem(st.token, T_SERIAL)});
        st.token = make_token(p, tuple_elem(st.token, T_FLAGS), tuple_elem(st.token, T_LABEL), serial,
                              tuple_elem(st.token, T_FROM), lastcnt);
        st.clock = uint64_t(small_value(serial));
        st.lastcnt = uint64_t(small_value(lastcnt));
        return old;
    }
    if (what == atom("sequential_trace_token")) {
        if (value != NIL) return NON_VALUE;
        Term old = seq_current_token(p);
        if (p->seq_trace) seq_state(p).token = NIL;
        return old;
    }
    return NON_VALUE;
}

Term seq_trace_info(Process* p, Term what) {
    if (!is_atom(what)) return NON_VALUE;
    uint32_t flag = flag_of(what);
    Term token = seq_current_token(p);
    Term value;
    if (flag) {
        value = make_bool(token != NIL && (token_flags(token) & flag));
    } else if (what == atom("label") || what == atom("serial")) {
        if (token == NIL) return NIL;
        value = what == atom("label") ? tuple_elem(token, T_LABEL)
                                      : make_tuple(*p, {tuple_elem(token, T_LASTCNT), tuple_elem(token, T_SERIAL)});
    } else if (what == atom("spawn") && token == NIL) {
        value = am::false_;  // accepted by erl's seq_trace_info only while there is no token
    } else {
        return NON_VALUE;
    }
    return make_tuple(*p, {what, value});
}

Term seq_trace_print(Process* p, Term label, Term msg) {
    if (seq_current_token(p) == NIL) return am::false_;
    SeqTrace& st = seq_state(p);
    if (is_value(label) && !eq_exact(label, tuple_elem(st.token, T_LABEL))) return am::false_;
    update_serial(p, st);
    output(p, st.token, seq_flag::PRINT, atom("print"), NIL, msg);
    return am::true_;
}

Term seq_set_system_tracer(Process* p, Term tracer) {
    VM& vm = *p->vm;
    TracerRef next;
    if (tracer != am::false_) {
        bool pair = is_tuple(tracer) && tuple_arity(tracer) == 2;
        next = pair ? make_tracer(p, tuple_elem(tracer, 0), tuple_elem(tracer, 1)) : make_tracer(p, tracer, NON_VALUE);
        if (!next) return NON_VALUE;
    }
    Term old = seq_system_tracer(p);
    vm.seq_trace.tracer.store(std::move(next), std::memory_order_release);
    return old;
}

Term seq_system_tracer(Process* p) {
    TracerRef t = p->vm->seq_trace.tracer.load(std::memory_order_acquire);
    if (!t) return am::false_;
    return t->to_term(*p);
}

void seq_reset_all(VM& vm) { vm.seq_trace.epoch.fetch_add(1, std::memory_order_acq_rel); }

}  // namespace beam

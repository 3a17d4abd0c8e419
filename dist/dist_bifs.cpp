// The distribution natives OTP's Erlang code calls (erts' dist.c): erlang:setnode/2,
// erts_internal:create_dist_channel/3 (behind erlang:setnode/3), new_connection/1,
// abort_pending_connection/2, get_creation/0, get_dflags/0, erlang:nodes/0,1,2,
// monitor_node/2,3, dist_spawn_request/4, and the dist_ctrl_* functions of process carriers.
//
// A connection handle (erlang:dist_handle(), and the connection id net_kernel keeps) is
// {ConnectionId, Node} here; OTP's code only stores, compares and passes it back.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_monitors.hpp"
#include "bifs/system_spawn.hpp"
#include "dist/dist_flags.hpp"
#include "dist/dist_system.hpp"
#include "dist/proc_channel.hpp"
#include "bifs/iolist.hpp"
#include "vm/binary.hpp"
#include "dist/spawn_remote.hpp"
#include "scheduler/signals.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

bool is_node_name(Term t) { return is_atom(t) && atom_name(t).find('@') != std::string_view::npos; }

bool term_to_u64(Term t, uint64_t* out) {
    if (is_small(t)) {
        if (small_value(t) < 0) return false;
        *out = uint64_t(small_value(t));
        return true;
    }
    if (!is_boxed_sub(t, Sub::PosBig) || big_limb_count(t) != 1) return false;
    *out = big_limbs(t)[0];
    return true;
}

Term handle_term(Process* p, uint32_t conn_id, Term node) { return make_tuple(*p, {make_small(SWord(conn_id)), node}); }

// The entry and connection id a handle names, if it is one.
std::shared_ptr<dist::DistEntry> entry_of_handle(Process* p, Term h, uint32_t* conn_id) {
    if (!is_tuple(h) || tuple_arity(h) != 2 || !is_small(tuple_elem(h, 0)) || !is_atom(tuple_elem(h, 1))) return nullptr;
    *conn_id = uint32_t(small_value(tuple_elem(h, 0)));
    return dist::dist_of(*p->vm).find(tuple_elem(h, 1));
}

// nodes(Types[, Options]): Types is one type or a proper list of them; Options a map whose
// only keys are connection_id and node_type, each true or false.
Term nodes(Process* p, Term types, Term options) {
    bool this_node = false, visible = false, hidden = false;
    Term one[2];
    if (is_atom(types)) {
        one[0] = types;
        one[1] = NIL;
        types = make_list_from(*p, one, 1);
    }
    for (; is_list(types); types = tail(types)) {
        Term t = head(types);
        if (t == atom("this")) this_node = true;
        else if (t == atom("known")) this_node = visible = hidden = true;
        else if (t == atom("visible")) visible = true;
        else if (t == atom("hidden")) hidden = true;
        else if (t == atom("connected")) visible = hidden = true;
        else return p->badarg();
    }
    if (!is_nil(types)) return p->badarg();
    bool info = is_value(options), connection_id = false, node_type = false;
    if (info) {
        if (!is_map(options)) return p->badarg();
        size_t known = 0;
        for (auto [key, flag] : {std::pair{atom("connection_id"), &connection_id}, {atom("node_type"), &node_type}}) {
            const Term* v = map_get(options, key);
            if (!v) continue;
            if (!is_boolean_atom(*v)) return p->badarg();
            *flag = *v == am::true_;
            ++known;
        }
        if (known != map_size(options)) return p->badarg();
    }
    auto entry = [&](Term node, Term type, Term conn) {
        if (!info) return node;
        std::vector<std::pair<Term, Term>> pairs;
        if (connection_id) pairs.emplace_back(atom("connection_id"), conn);
        if (node_type) pairs.emplace_back(atom("node_type"), type);
        return make_tuple(*p, {node, map_from_pairs(*p, std::move(pairs))});
    };
    Term list = NIL;
    if (p->vm->node.is_alive() && (visible || hidden)) {
        auto conns = dist::dist_of(*p->vm).connected(visible, hidden);
        for (auto it = conns.rbegin(); it != conns.rend(); ++it) {
            auto& e = **it;
            Term type = atom(e.hidden ? "hidden" : "visible");
            list = cons_at(p->alloc(2), entry(e.node, type, make_small(SWord(e.conn_id))), list);
        }
    }
    // This node has no connection, so no connection id.
    if (this_node) list = cons_at(p->alloc(2), entry(p->vm->node.name(), atom("this"), am::undefined), list);
    return list;
}

// monitor_node(Node, Flag[, Options]): options are checked first (only
// allow_passive_connect, else badarg with cause badopt), then Node. Another node needs this
// one alive (notalive); an unreachable one answers {nodedown, Node} at once.
Term monitor_node(Process* p, const Term* a, unsigned arity) {
    Term opts = arity == 3 ? a[2] : NIL;
    for (; is_list(opts); opts = tail(opts))
        if (head(opts) != atom("allow_passive_connect")) return badarg_with_cause(p, "monitor_node", a, arity, atom("badopt"));
    if (!is_nil(opts)) return badarg_with_cause(p, "monitor_node", a, arity, atom("badopt"));
    if (!is_atom(a[0])) return p->badarg();
    // As erts: another node on a node that is not alive is notalive before Flag is looked at.
    if (a[0] != p->vm->node.name() && !p->vm->node.is_alive()) return p->error(atom("notalive"));
    if (!is_boolean_atom(a[1])) return p->badarg();
    if (a[0] == p->vm->node.name()) return am::true_;  // this node: never fires
    auto& d = dist::dist_of(*p->vm);
    auto e = d.find_or_insert(a[0]);
    if (!d.monitor_node(p->pid, *e, a[1] == am::true_))
        p->mailbox_push(make_tuple(*p, {atom("nodedown"), a[0]}));
    return am::true_;
}
Term monitor_node_2(Process* p, const Term* a) { return monitor_node(p, a, 2); }
Term monitor_node_3(Process* p, const Term* a) { return monitor_node(p, a, 3); }

Term nodes_0(Process* p, const Term*) { return nodes(p, atom("visible"), NON_VALUE); }
Term nodes_1(Process* p, const Term* a) { return nodes(p, a[0], NON_VALUE); }
Term nodes_2(Process* p, const Term* a) { return nodes(p, a[0], a[1]); }

// ---- the dist_ctrl_* functions of a process carrier (dist/proc_channel.hpp) ----
// erts lets only the controlling process call them (anyone else: notsup); a handle that is
// not its current connection's is badarg. dist_ctrl_put_data/2 is for the input handler
// (the controller unless dist_ctrl_input_handler/2 named another).

// The channel of the connection `h` names, if it is one carried by a process (else null).
std::shared_ptr<dist::ProcChannel> channel_of(Process* p, Term h) {
    uint32_t conn_id;
    auto e = entry_of_handle(p, h, &conn_id);
    if (!e) return nullptr;
    std::lock_guard lock(e->mu);
    if (e->state != dist::ConnState::Up || !e->proc || e->proc->conn_id != conn_id) return nullptr;
    return e->proc;
}

// The controller's own channel for `h`: null with *err set otherwise. As erts: a process that
// carries no connection is told notsup whatever the handle; a carrier naming a handle that is
// not a live connection's gets badarg, one naming another carrier's connection notsup.
std::shared_ptr<dist::ProcChannel> controller_channel(Process* p, Term h, Term* err) {
    if (!dist::dist_of(*p->vm).is_controller(p->pid)) {
        *err = atom("notsup");
        return nullptr;
    }
    auto ch = channel_of(p, h);
    if (ch && ch->controller == p->pid) return ch;
    *err = ch ? atom("notsup") : am::badarg;
    return nullptr;
}

Term fail(Process* p, Term err) { return err == am::badarg ? p->badarg() : p->error(err); }

Term dist_ctrl_get_data_1(Process* p, const Term* a) {
    Term err;
    auto ch = controller_channel(p, a[0], &err);
    if (!ch) return fail(p, err);
    dist::ProcChannel::Packet packet;
    if (!ch->take(packet)) return atom("none");
    size_t size = packet.size();
    // An iovec, as erts gives it (tls_sender appends these lists with ++).
    Term bin = packet.blob ? make_binary_from_blob(*p, packet.blob.release())
                           : make_binary(*p, packet.small.data(), packet.small.size());
    Term iov = cons_at(p->alloc(2), bin, NIL);
    if (!ch->get_size.load(std::memory_order_relaxed)) return iov;
    return make_tuple(*p, {make_integer_u(*p, size), iov});
}

Term dist_ctrl_get_data_notification_1(Process* p, const Term* a) {
    Term err;
    auto ch = controller_channel(p, a[0], &err);
    if (!ch) return fail(p, err);
    if (ch->request_notification()) p->mailbox_push(atom("dist_data"));
    return am::ok;
}

Term dist_ctrl_input_handler_2(Process* p, const Term* a) {
    Term err;
    auto ch = controller_channel(p, a[0], &err);
    if (!ch) return fail(p, err);
    if (!is_local_pid(a[1])) return p->badarg();
    ch->input_handler.store(a[1].raw, std::memory_order_relaxed);
    return am::ok;
}

Term dist_ctrl_put_data_2(Process* p, const Term* a) {
    std::vector<uint8_t> bytes;
    if (!iolist_to_bytes(a[1], bytes)) return p->badarg();
    auto ch = channel_of(p, a[0]);
    if (!ch) return p->badarg();
    if (ch->input_handler.load(std::memory_order_relaxed) != p->pid.raw) return p->error(atom("notsup"));
    // A malformed packet ends the connection (connection_lost kills the controller, as erts).
    if (!ch->put(bytes.data(), bytes.size())) {
        uint32_t conn_id;
        auto e = entry_of_handle(p, a[0], &conn_id);
        if (e) dist::dist_of(*p->vm).connection_lost(*e, conn_id, atom("invalid_data"));
    }
    return am::ok;
}

Term dist_ctrl_set_opt_3(Process* p, const Term* a) {
    Term err;
    auto ch = controller_channel(p, a[0], &err);
    if (!ch) return fail(p, err);
    if (a[1] != atom("get_size") || !is_boolean_atom(a[2])) return p->badarg();
    return make_bool(ch->get_size.exchange(a[2] == am::true_));
}

Term dist_ctrl_get_opt_2(Process* p, const Term* a) {
    Term err;
    auto ch = controller_channel(p, a[0], &err);
    if (!ch) return fail(p, err);
    if (a[1] != atom("get_size")) return p->badarg();
    return make_bool(ch->get_size.load());
}

// {ok, Received, Sent, PendingSend}: packets received and sent, and the bytes waiting for
// the controller. A port carrier's counts are the socket's (inet:getstat): badarg here.
Term dist_get_stat_1(Process* p, const Term* a) {
    auto ch = channel_of(p, a[0]);
    if (!ch) return p->badarg();
    return make_tuple(*p, {am::ok, make_integer_u(*p, ch->received()), make_integer_u(*p, ch->sent()),
                           make_integer_u(*p, ch->pending_bytes())});
}

// erlang:setnode(Node, Creation): this node becomes Node (net_kernel's start, after epmd
// gave the creation).
// As erts: badarg on a node that is alive already, or without a registered net_kernel.
Term setnode_2(Process* p, const Term* a) {
    if (!is_node_name(a[0]) || a[0] == am::nonode_at_nohost || !is_small(a[1]) || small_value(a[1]) < 0 ||
        small_value(a[1]) > 0xffffffff || p->vm->node.is_alive())
        return p->badarg();
    Term nk = p->vm->procs.whereis(&p->vm->root(), atom("net_kernel"));
    if (!is_local_pid(nk)) return p->badarg();
    dist::dist_of(*p->vm).this_node_alive(a[0], uint32_t(small_value(a[1])), nk);
    return am::true_;
}

// erts_internal:create_dist_channel(Node, Ctrlr, {Flags, Creation}) -> {ok, DHandle} or an
// error atom: the pending connection to Node is now carried by the port Ctrlr.
Term create_dist_channel_3(Process* p, const Term* a) {
    Term node = a[0], ctrlr = a[1], tpl = a[2];
    if (!is_node_name(node) || !is_tuple(tpl) || tuple_arity(tpl) != 2) return am::badarg;
    uint64_t flags;
    if (!term_to_u64(tuple_elem(tpl, 0), &flags) || !is_small(tuple_elem(tpl, 1))) return am::badarg;
    uint32_t creation = uint32_t(small_value(tuple_elem(tpl, 1)));
    if ((flags & dist::flag::MANDATORY) != dist::flag::MANDATORY) return am::badarg;
    if (node == p->vm->node.name()) return am::badarg;
    if (!is_local_port(ctrlr) && !is_local_pid(ctrlr)) return am::badarg;
    Term nk = p->vm->procs.whereis(&p->vm->root(), atom("net_kernel"));
    if (!is_local_pid(nk)) return am::badarg;
    auto& d = dist::dist_of(*p->vm);
    auto e = d.find_or_insert(node);
    bool attached = is_local_port(ctrlr) ? d.attach_port(p, *e, ctrlr, flags, creation)
                                         : d.attach_process(*e, ctrlr, flags, creation);
    if (!attached) return am::badarg;
    post_message(*p->vm, nk, make_tuple(*p, {atom("dist_ctrlr"), ctrlr, node, p->pid}));
    uint32_t conn_id;
    {
        std::lock_guard lock(e->mu);
        conn_id = e->conn_id;
    }
    d.node_event(node, !(flags & dist::flag::PUBLISHED), conn_id, true, NIL);
    return make_tuple(*p, {am::ok, handle_term(p, conn_id, node)});
}

Term new_connection_1(Process* p, const Term* a) {
    if (!is_node_name(a[0]) || a[0] == p->vm->node.name()) return p->badarg();
    auto& d = dist::dist_of(*p->vm);
    auto e = d.find_or_insert(a[0]);
    return handle_term(p, d.new_connection(*e), a[0]);
}

Term abort_pending_connection_2(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    uint32_t conn_id;
    auto e = entry_of_handle(p, a[1], &conn_id);
    if (!e || e->node != a[0]) return p->badarg();
    return make_bool(dist::dist_of(*p->vm).abort_pending(*e, conn_id));
}

// This node's creation; undefined while it is 0 (not alive), as erts.
Term get_creation_0(Process* p, const Term*) {
    uint32_t creation = p->vm->node.creation();
    return creation == 0 ? am::undefined : make_integer_u(*p, creation);
}

// erts' erts_dflags record: default, mandatory, addable, rejectable, strict order.
Term get_dflags_0(Process* p, const Term*) {
    using namespace dist::flag;
    return make_tuple(*p, {atom("erts_dflags"), make_integer_u(*p, DEFAULT), make_integer_u(*p, MANDATORY),
                           make_integer_u(*p, ADDABLE), make_integer_u(*p, REJECTABLE),
                           make_integer_u(*p, STRICT_ORDER)});
}

// erts_internal:dist_spawn_request(Node, {M, F, Args}, Opts, spawn_request | spawn_opt).
// A node that is not alive reaches no other: once the options this node acts on check out,
// the reply is {Tag, ReqId, error, noconnection} (or badopt), as erts answers.
Term dist_spawn_request_4(Process* p, const Term* a) {
    Term mfa = a[1];
    if (!is_atom(a[0]) || !is_tuple(mfa) || tuple_arity(mfa) != 3 || !is_atom(tuple_elem(mfa, 0)) ||
        !is_atom(tuple_elem(mfa, 1)) || !proper_list_length(tuple_elem(mfa, 2)) || !proper_list_length(a[2]))
        return am::badarg;
    bool as_spawn_opt = a[3] == atom("spawn_opt");
    if (p->vm->node.is_alive()) return dist::spawn_request(p, a[0], mfa, a[2], as_spawn_opt);
    Term tag = atom("spawn_reply");
    bool reply_error = true, badopt = false, monitor = false;
    for (Term opts = a[2]; is_list(opts); opts = tail(opts)) {
        Term opt = head(opts);
        if (opt == atom("monitor")) monitor = true;
        if (!is_tuple(opt) || tuple_arity(opt) != 2) continue;
        Term k = tuple_elem(opt, 0), v = tuple_elem(opt, 1);
        if (k == atom("reply_tag")) {
            tag = v;
        } else if (k == atom("reply")) {
            Term one = make_list_from(*p, &opt, 1);
            SpawnOpts r(*p->vm);
            if (parse_spawn_opts(one, &r, true) != 0) badopt = true;
            else reply_error = r.reply_error;
        } else if (k == atom("monitor")) {
            monitor = true;
            MonitorOpts mo;
            if (!parse_monitor_opts(v, &mo)) badopt = true;
        }
    }
    Term ref = make_new_ref(*p);
    if (reply_error) p->mailbox_push(make_tuple(*p, {tag, ref, am::error, atom(badopt ? "badopt" : "noconnection")}));
    return as_spawn_opt ? make_tuple(*p, {ref, make_bool(monitor)}) : ref;
}

constexpr BifSpec table[] = {
    {"erlang", "setnode", 2, &setnode_2},
    {"erlang", "nodes", 0, &nodes_0},
    {"erlang", "nodes", 1, &nodes_1},
    {"erlang", "nodes", 2, &nodes_2},
    {"erlang", "monitor_node", 2, &monitor_node_2},
    {"erlang", "monitor_node", 3, &monitor_node_3},
    {"erlang", "dist_get_stat", 1, &dist_get_stat_1},
    {"erlang", "dist_ctrl_input_handler", 2, &dist_ctrl_input_handler_2},
    {"erlang", "dist_ctrl_put_data", 2, &dist_ctrl_put_data_2},
    {"erlang", "dist_ctrl_get_data", 1, &dist_ctrl_get_data_1},
    {"erlang", "dist_ctrl_get_data_notification", 1, &dist_ctrl_get_data_notification_1},
    {"erlang", "dist_ctrl_set_opt", 3, &dist_ctrl_set_opt_3},
    {"erlang", "dist_ctrl_get_opt", 2, &dist_ctrl_get_opt_2},
    {"erts_internal", "create_dist_channel", 3, &create_dist_channel_3},
    {"erts_internal", "new_connection", 1, &new_connection_1},
    {"erts_internal", "abort_pending_connection", 2, &abort_pending_connection_2},
    {"erts_internal", "get_creation", 0, &get_creation_0},
    {"erts_internal", "get_dflags", 0, &get_dflags_0},
    {"erts_internal", "dist_spawn_request", 4, &dist_spawn_request_4},
};

}  // namespace

std::span<const BifSpec> distribution_bifs() { return table; }

}  // namespace beam

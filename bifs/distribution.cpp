// Distribution as a node that is not alive sees it: erlang:nodes/0,1,2, monitor_node/2,3,
// dist_get_stat/1 and the dist_ctrl_* functions of alternative carriers (erts' dist.c). beamvm has no distribution
// (docs/architecture.md), so the only node there is is this one, nonode@nohost, which
// nodes/1,2 list when asked for `this` or `known`; node/0,1 are in bifs/misc.cpp.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/map.hpp"
#include "vm/vm.hpp"

namespace beam {

const NodeIdentity& this_node(const Process* p) { return p->vm ? p->vm->node : not_alive_identity(); }

namespace {

// nodes(Types[, Options]): Types is one type or a proper list of them; Options a map whose
// only keys are connection_id and node_type, each true or false.
Term nodes(Process* p, Term types, Term options) {
    bool want_this = false;
    Term one[2];
    if (is_atom(types)) {
        one[0] = types;
        one[1] = NIL;
        types = make_list_from(*p, one, 1);
    }
    for (; is_list(types); types = tail(types)) {
        Term t = head(types);
        if (t == atom("this") || t == atom("known")) want_this = true;
        else if (t != atom("visible") && t != atom("hidden") && t != atom("connected")) return p->badarg();
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
    if (!want_this) return NIL;
    Term entry = this_node(p).name();
    if (info) {
        std::vector<std::pair<Term, Term>> pairs;
        // This node has no connection, so no connection id.
        if (connection_id) pairs.emplace_back(atom("connection_id"), am::undefined);
        if (node_type) pairs.emplace_back(atom("node_type"), atom("this"));
        entry = make_tuple(*p, {this_node(p).name(), map_from_pairs(*p, std::move(pairs))});
    }
    return make_list_from(*p, &entry, 1);
}

// monitor_node(Node, Flag[, Options]): options are checked first (only
// allow_passive_connect, else badarg with cause badopt), then Node; any node but this one
// needs distribution (notalive). Monitoring this node is accepted and never fires.
Term monitor_node(Process* p, const Term* a, unsigned arity) {
    Term opts = arity == 3 ? a[2] : NIL;
    for (; is_list(opts); opts = tail(opts))
        if (head(opts) != atom("allow_passive_connect")) return badarg_with_cause(p, "monitor_node", a, arity, atom("badopt"));
    if (!is_nil(opts)) return badarg_with_cause(p, "monitor_node", a, arity, atom("badopt"));
    if (!is_atom(a[0])) return p->badarg();
    if (a[0] != this_node(p).name()) return p->error(atom("notalive"));
    if (!is_boolean_atom(a[1])) return p->badarg();
    return am::true_;
}
Term monitor_node_2(Process* p, const Term* a) { return monitor_node(p, a, 2); }
Term monitor_node_3(Process* p, const Term* a) { return monitor_node(p, a, 3); }

Term nodes_0(Process* p, const Term*) { return nodes(p, atom("visible"), NON_VALUE); }
Term nodes_1(Process* p, const Term* a) { return nodes(p, a[0], NON_VALUE); }
Term nodes_2(Process* p, const Term* a) { return nodes(p, a[0], a[1]); }

// The dist_ctrl_* functions may only be called by a connection's controlling process; with
// no connections there is none, so each fails with notsup, as erts does for any other caller.
// dist_ctrl_put_data/2 and dist_get_stat/1 look their handle up first, and there is no
// handle: badarg.
Term not_dist_controller(Process* p, const Term*) { return p->error(atom("notsup")); }
Term no_dist_handle(Process* p, const Term*) { return p->badarg(); }

// erlang:setnode/2 makes this node alive (net_kernel's start); a name without '@' or a
// creation that is not an integer is badarg as in erts, and becoming alive needs distribution.
Term setnode_2(Process* p, const Term* a) {
    if (!is_atom(a[0]) || atom_name(a[0]).find('@') == std::string_view::npos || !is_small(a[1]))
        return p->badarg();
    return p->error(make_tuple(*p, {atom("not_implemented"), atom("distribution")}));
}

constexpr BifSpec table[] = {
    {"erlang", "setnode", 2, &setnode_2},
    {"erlang", "nodes", 0, &nodes_0},
    {"erlang", "nodes", 1, &nodes_1},
    {"erlang", "nodes", 2, &nodes_2},
    {"erlang", "monitor_node", 2, &monitor_node_2},
    {"erlang", "monitor_node", 3, &monitor_node_3},
    {"erlang", "dist_get_stat", 1, &no_dist_handle},
    {"erlang", "dist_ctrl_input_handler", 2, &not_dist_controller},
    {"erlang", "dist_ctrl_put_data", 2, &no_dist_handle},
    {"erlang", "dist_ctrl_get_data", 1, &not_dist_controller},
    {"erlang", "dist_ctrl_get_data_notification", 1, &not_dist_controller},
    {"erlang", "dist_ctrl_set_opt", 3, &not_dist_controller},
    {"erlang", "dist_ctrl_get_opt", 2, &not_dist_controller},
};

}  // namespace

std::span<const BifSpec> distribution_bifs() { return table; }

}  // namespace beam

// prim_socket's informational and control natives: nif_info/0,1 (global and per-socket
// maps, as prim_socket_nif.c's esock_global_info / esock_socket_info), nif_supports/0,1,
// nif_command/1 (debug, socket_debug, use_registry) and nif_cancel/3 (socket:cancel/2).
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <climits>
#include <cstring>
#include <mutex>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "io/socket/socket_ioctl.hpp"
#include "io/socket/socket_options.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beam::esock {

namespace {

Term u(Process* p, uint64_t v) { return make_integer_u(*p, v); }

Term nif_info_0(Process* p, const Term*) {
    GlobalCounts c = global_counts();
    Term counters = make_atom_map(p, {{"num_cnt_bits", make_small(64)},
                                      {"num_sockets", u(p, c.sockets)},
                                      {"num_tdgrams", u(p, c.dgram)},
                                      {"num_tstreams", u(p, c.stream)},
                                      {"num_tseqpkgs", u(p, c.seqpacket)},
                                      {"num_dlocal", u(p, c.local)},
                                      {"num_dinet", u(p, c.inet)},
                                      {"num_dinet6", u(p, c.inet6)},
                                      {"num_pip", u(p, c.ip)},
                                      {"num_ptcp", u(p, c.tcp)},
                                      {"num_pudp", u(p, c.udp)},
                                      {"num_psctp", u(p, c.sctp)}});
    return make_atom_map(p, {{"debug", make_bool(global_debug())},
                             {"socket_debug", make_bool(global_socket_debug())},
                             {"use_registry", make_bool(global_use_registry())},
                             {"iow", make_bool(global_iow())},
                             {"counters", counters},
                             {"iov_max", make_small(IOV_MAX)}});
}

Term states(Process* p, unsigned st) {
    static const std::pair<unsigned, const char*> names[] = {
        {ST_BOUND, "bound"},         {ST_LISTENING, "listening"}, {ST_ACCEPTING, "accepting"},
        {ST_CONNECTING, "connecting"}, {ST_CONNECTED, "connected"}, {ST_SELECTED, "selected"},
        {ST_CLOSING, "closing"},     {ST_CLOSED, "closed"},       {ST_DTOR, "dtor"}};
    std::vector<Term> out;
    for (auto [bit, name] : names)
        if (st & bit) out.push_back(atom(name));
    return make_list_from(*p, out.data(), out.size());
}

// Current and waiting requestors, counted only when there is a current one (socket_info_reqs).
Term waiting(Process*, const std::optional<Requestor>& cur, const std::deque<Requestor>& q) {
    return make_small(cur ? 1 + q.size() : 0);
}

Term nif_info_1(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    std::lock_guard lock(s->mu);
    const Counters& c = s->cnt;
    Term counters = make_atom_map(p, {{"read_byte", u(p, c.read_byte)},
                                      {"read_fails", u(p, c.read_fails)},
                                      {"read_pkg", u(p, c.read_pkg)},
                                      {"read_pkg_max", u(p, c.read_pkg_max)},
                                      {"read_tries", u(p, c.read_tries)},
                                      {"read_waits", u(p, c.read_waits)},
                                      {"write_byte", u(p, c.write_byte)},
                                      {"write_fails", u(p, c.write_fails)},
                                      {"write_pkg", u(p, c.write_pkg)},
                                      {"write_pkg_max", u(p, c.write_pkg_max)},
                                      {"write_tries", u(p, c.write_tries)},
                                      {"write_waits", u(p, c.write_waits)},
                                      {"acc_success", u(p, c.acc_success)},
                                      {"acc_fails", u(p, c.acc_fails)},
                                      {"acc_tries", u(p, c.acc_tries)},
                                      {"acc_waits", u(p, c.acc_waits)}});
    Term ctype = s->orig_fd >= 0 ? (s->close_on_close ? make_tuple(*p, {atom("fromfd"), make_small(s->orig_fd)})
                                                      : atom("fromfd"))
                                 : atom("normal");
    return make_atom_map(p, {{"domain", encode_domain(p, s->domain)},
                             {"type", encode_type(p, s->type)},
                             {"protocol", make_integer(*p, s->protocol)},
                             {"owner", s->owner == NIL ? am::undefined : s->owner},
                             {"rstates", states(p, s->rstate)},
                             {"wstates", states(p, s->wstate)},
                             {"ctype", ctype},
                             {"counters", counters},
                             {"num_readers", waiting(p, s->reader, s->readers)},
                             {"num_writers", waiting(p, s->writer, s->writers)},
                             {"num_acceptors", waiting(p, s->acceptor, s->acceptors)}});
}

Term nif_supports_0(Process* p, const Term*) {
    std::vector<Term> items = {
        make_tuple(*p, {atom("sctp"), am::true_}),  make_tuple(*p, {atom("ipv6"), am::true_}),
        make_tuple(*p, {atom("local"), am::true_}), make_tuple(*p, {atom("netns"), am::true_}),
        make_tuple(*p, {atom("sendfile"), am::true_})};
    return make_list_from(*p, items.data(), items.size());
}

// The protocols table as OTP builds it: getprotoent's entries (each {[Name | Aliases],
// Num}, consed so the file's first entry comes last), after the defaults for the protocols
// the NIF knows (so maps:from_list/1 lets /etc/protocols win).
Term protocols(Process* p) {
    static std::mutex mu;  // getprotoent's state is global
    Term list = NIL;
    {
        std::lock_guard lock(mu);
        setprotoent(1);
        while (protoent* pe = getprotoent()) {
            std::vector<Term> names = {atom(pe->p_name)};
            for (char** al = pe->p_aliases; *al; ++al) names.push_back(atom(*al));
            // OTP conses aliases in order onto [] then the name: [Name | reversed aliases].
            std::vector<Term> ordered = {names[0]};
            for (size_t i = names.size(); i-- > 1;) ordered.push_back(names[i]);
            Term t = make_tuple(*p, {make_list_from(*p, ordered.data(), ordered.size()), make_integer(*p, pe->p_proto)});
            list = make_list_from(*p, &t, 1, list);
        }
        endprotoent();
    }
    std::pair<const char*, int> defaults[] = {
        {"ip", IPPROTO_IP}, {"ipv6", IPPROTO_IPV6}, {"tcp", IPPROTO_TCP}, {"udp", IPPROTO_UDP}, {"sctp", IPPROTO_SCTP}};
    for (auto& [name, num] : defaults) {
        Term n = atom(name);
        Term t = make_tuple(*p, {make_list_from(*p, &n, 1), make_small(num)});
        list = make_list_from(*p, &t, 1, list);
    }
    return list;
}

Term msg_flags_table(Process* p) {
    std::pair<const char*, int> flags[] = {
        {"cmsg_cloexec", MSG_CMSG_CLOEXEC}, {"confirm", MSG_CONFIRM}, {"ctrunc", MSG_CTRUNC},
        {"dontroute", MSG_DONTROUTE},       {"eor", MSG_EOR},         {"errqueue", MSG_ERRQUEUE},
        {"more", MSG_MORE},                 {"nosignal", MSG_NOSIGNAL}, {"oob", MSG_OOB},
        {"peek", MSG_PEEK},                 {"trunc", MSG_TRUNC}};
    Term list = NIL;
    for (auto& [name, f] : flags) {
        Term t = make_tuple(*p, {atom(name), make_integer(*p, f)});
        list = make_list_from(*p, &t, 1, list);
    }
    return list;
}

Term ioctl_requests(Process* p) {
    std::pair<const char*, unsigned long> reqs[] = {
        {"gifname", SIOCGIFNAME},     {"gifindex", SIOCGIFINDEX},   {"gifflags", SIOCGIFFLAGS},
        {"gifaddr", SIOCGIFADDR},     {"gifdstaddr", SIOCGIFDSTADDR}, {"gifbrdaddr", SIOCGIFBRDADDR},
        {"gifnetmask", SIOCGIFNETMASK}, {"gifmtu", SIOCGIFMTU},     {"gifhwaddr", SIOCGIFHWADDR},
        {"gifmap", SIOCGIFMAP},       {"giftxqlen", SIOCGIFTXQLEN}, {"gifconf", SIOCGIFCONF},
        {"sifflags", SIOCSIFFLAGS},   {"sifaddr", SIOCSIFADDR},     {"sifdstaddr", SIOCSIFDSTADDR},
        {"sifbrdaddr", SIOCSIFBRDADDR}, {"sifmtu", SIOCSIFMTU},     {"siftxqlen", SIOCSIFTXQLEN}};
    Term list = NIL;
    for (auto& [name, r] : reqs) {
        Term t = make_tuple(*p, {atom(name), make_integer_u(*p, r)});
        list = make_list_from(*p, &t, 1, list);
    }
    return list;
}

// supports(ioctl_flags): the table consed in its order, as OTP builds it.
Term ioctl_flags(Process* p) {
    Term list = NIL;
    for (size_t i = 0; i < ioctl_flag_count; ++i) {
        Term t = make_tuple(*p, {atom(ioctl_flag_table[i].name), make_integer(*p, ioctl_flag_table[i].flag)});
        list = make_list_from(*p, &t, 1, list);
    }
    return list;
}

Term nif_supports_1(Process* p, const Term* a) {
    if (a[0] == atom("msg_flags")) return msg_flags_table(p);
    if (a[0] == atom("protocols")) return protocols(p);
    if (a[0] == atom("ioctl_requests")) return ioctl_requests(p);
    if (a[0] == atom("ioctl_flags")) return ioctl_flags(p);
    if (a[0] == atom("options")) return supported_options(p);
    return NIL;
}

Term nif_command_1(Process* p, const Term* a) {
    const Term* cmd = is_map(a[0]) ? map_get(a[0], atom("command")) : nullptr;
    const Term* data = is_map(a[0]) ? map_get(a[0], atom("data")) : nullptr;
    if (!cmd || !data) return p->badarg();
    bool on = *data == am::true_;
    if (!is_boolean_atom(*data)) return invalid_tuple(p, make_tuple(*p, {atom("command"), a[0]}));
    if (*cmd == atom("debug")) set_global_debug(on);
    else if (*cmd == atom("socket_debug")) set_global_socket_debug(on);
    else if (*cmd == atom("use_registry")) set_global_use_registry(on);
    else return invalid_tuple(p, make_tuple(*p, {atom("command"), a[0]}));
    return am::ok;
}

// Cancels the caller's own wait: `ok` (its select message will not come), `select_sent`
// (it already has), `not_found`.
Term cancel_in(Process* p, Socket& s, Term sockref, std::optional<Requestor>& cur, std::deque<Requestor>& q,
               bool write, Term ref) {
    if (!cur) return atom("not_found");
    if (cur->pid == p->pid) {
        if (!eq_exact(ref, cur->ref.term())) return atom("not_found");
        Term res = select_cancel(s, write) ? am::ok : atom("select_sent");
        release_requestor(s, *cur);
        if (!activate_next(s, sockref, cur, q, write)) cur.reset();
        return res;
    }
    return unqueue(s, q, p->pid, &ref) ? am::ok : atom("not_found");
}

Term nif_cancel_3(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s || !is_atom(a[1]) || !is_ref(a[2])) return p->badarg();
    Term op = a[1], ref = a[2];
    std::lock_guard lock(s->mu);
    if (op == atom("connect")) {
        if (!is_open(s->wstate)) return error_tuple(p, atom("closed"));
        if (!s->connector || s->connector->pid != p->pid || !eq_exact(ref, s->connector->ref.term()))
            return atom("not_found");
        Term res = select_cancel(*s, true) ? am::ok : atom("select_sent");
        release_requestor(*s, *s->connector);
        s->connector.reset();
        s->wstate &= ~ST_CONNECTING;
        return res;
    }
    if (op == atom("accept")) {
        if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
        Term r = cancel_in(p, *s, a[0], s->acceptor, s->acceptors, false, ref);
        if (!s->acceptor) s->rstate &= ~ST_ACCEPTING;
        return r;
    }
    if (op == atom("recv") || op == atom("recvfrom") || op == atom("recvmsg")) {
        if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
        return cancel_in(p, *s, a[0], s->reader, s->readers, false, ref);
    }
    if (op == atom("send") || op == atom("sendto") || op == atom("sendmsg") || op == atom("sendfile")) {
        if (!is_open(s->wstate)) return error_tuple(p, atom("closed"));
        return cancel_in(p, *s, a[0], s->writer, s->writers, true, ref);
    }
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    return p->badarg();
}

constexpr BifSpec table[] = {
    {"prim_socket", "nif_info", 0, &nif_info_0},
    {"prim_socket", "nif_info", 1, &nif_info_1},
    {"prim_socket", "nif_supports", 0, &nif_supports_0},
    {"prim_socket", "nif_supports", 1, &nif_supports_1},
    {"prim_socket", "nif_command", 1, &nif_command_1},
    {"prim_socket", "nif_cancel", 3, &nif_cancel_3},
};

}  // namespace

}  // namespace beam::esock

namespace beam {
std::span<const BifSpec> prim_socket_info_bifs() { return esock::table; }
}  // namespace beam

// Port BIFs. OTP's erlang:open_port/2, port_command/2,3, port_close/1, port_connect/2 and
// port_info/1,2 are Erlang code over erts_internal:port_* natives (erts/preloaded/src/
// erlang.erl); these are those natives (OTP: erl_bif_port.c, io.c), answering at once rather
// than with a reference. The port system itself is scheduler/ports.hpp.
#include <cerrno>
#include <cstring>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "bifs/sandbox_checks.hpp"
#include "bifs/system_monitors.hpp"
#include "io/c_drivers.hpp"
#include "io/drivers.hpp"
#include "vm/term_refs.hpp"
#include "scheduler/aliases.hpp"
#include "scheduler/ports.hpp"
#include "vm/binary.hpp"
#include "vm/trace.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// A file name or command: a flat character list or a binary (OTP accepts both).
std::optional<std::string> text_arg(Term t) {
    if (is_binary(t)) {
        std::string scratch;
        return std::string(binary_bytes(t, scratch));
    }
    if (!is_list(t) && !is_nil(t)) return std::nullopt;
    return char_list_to_utf8(t);
}

std::optional<std::string> string_or_nil(Term t) {
    if (is_atom(t)) return std::string(atom_name(t));
    return is_nil(t) ? std::optional<std::string>("") : text_arg(t);
}

bool parse_env(Term list, PortSettings& s) {
    for (; is_list(list); list = tail(list)) {
        Term e = head(list);
        if (!is_tuple(e) || tuple_arity(e) != 2) return false;
        auto name = string_or_nil(tuple_elem(e, 0));
        if (!name || name->empty() || name->find('=') != std::string::npos) return false;
        Term v = tuple_elem(e, 1);
        if (v == am::false_) {
            s.env.emplace_back(*name, std::nullopt);
            continue;
        }
        auto value = string_or_nil(v);
        if (!value) return false;
        s.env.emplace_back(*name, *value);
    }
    return is_nil(list);
}

enum class Parse { Ok, Badarg, Badopt, Einval };

Parse parse_name(Term name, PortSettings& s) {
    if (is_atom(name)) {  // the old form: an atom is a command to spawn (empty: einval later)
        s.command = std::string(atom_name(name));
        return Parse::Ok;
    }
    if (is_list(name)) {  // so is a string of bytes
        auto text = byte_list(name);
        if (!text) return Parse::Badarg;
        s.command = *text;
        return Parse::Ok;
    }
    if (!is_tuple(name)) return Parse::Badarg;
    Term kind = tuple_elem(name, 0);
    if (tuple_arity(name) == 3 && kind == atom("fd")) {
        Term in = tuple_elem(name, 1), out = tuple_elem(name, 2);
        if (!is_small(in) || !is_small(out)) return Parse::Badarg;
        if (small_value(in) < 0 || small_value(out) < 0) return Parse::Einval;  // as erl
        s.kind = PortSettings::Kind::Fd;
        s.fd_in = static_cast<int>(small_value(in));
        s.fd_out = static_cast<int>(small_value(out));
        return Parse::Ok;
    }
    if (tuple_arity(name) != 2) return Parse::Badarg;
    auto text = is_atom(tuple_elem(name, 1)) ? std::optional<std::string>(atom_name(tuple_elem(name, 1)))
                                              : text_arg(tuple_elem(name, 1));
    if (!text || text->empty()) return Parse::Badarg;
    // A driver beamvm does not link in is badarg, as erl answers for one it does not have.
    if (kind == atom("spawn_driver")) {
        s.driver = find_port_driver(*text);
        if (!s.driver) s.driver = find_c_driver(*text);
        if (!s.driver) return Parse::Badarg;
        s.kind = PortSettings::Kind::Driver;
        s.command = text->substr(0, text->find(' '));
        return Parse::Ok;
    }
    // {spawn, Command} opens a driver of that name (linked in, as tty_sl, or loaded) before
    // it runs a program, as erts.
    if (kind == atom("spawn") && ((s.driver = find_port_driver(*text)) || (s.driver = find_c_driver(*text)))) {
        s.kind = PortSettings::Kind::Driver;
        s.command = *text;  // the driver's start gets the whole command line
        return Parse::Ok;
    }
    if (kind == atom("spawn")) s.kind = PortSettings::Kind::Spawn;
    else if (kind == atom("spawn_executable")) s.kind = PortSettings::Kind::SpawnExecutable;
    else return Parse::Badarg;
    s.command = *text;
    return Parse::Ok;
}

Parse parse_settings(Term opts, PortSettings& s) {
    bool only_in = false, only_out = false;
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (is_atom(o)) {
            if (o == atom("stream")) s.packet = 0;
            else if (o == atom("use_stdio")) s.use_stdio = true;
            else if (o == atom("nouse_stdio")) s.use_stdio = false;
            else if (o == atom("stderr_to_stdout")) s.stderr_to_stdout = true;
            else if (o == atom("exit_status")) s.exit_status = true;
            else if (o == atom("in")) only_in = true;  // `in` and `out` add up; neither: both
            else if (o == atom("out")) only_out = true;
            else if (o == atom("binary")) s.binary = true;
            else if (o == atom("eof")) s.eof = true;
            else if (o == atom("line")) s.line = 512;  // erts' default line buffer
            else if (o == atom("hide") || o == atom("overlapped_io")) {
            } else return Parse::Badopt;
            continue;
        }
        if (!is_tuple(o) || tuple_arity(o) != 2) return Parse::Badopt;
        Term k = tuple_elem(o, 0), v = tuple_elem(o, 1);
        if (k == atom("packet")) {
            if (!is_small(v) || (small_value(v) != 1 && small_value(v) != 2 && small_value(v) != 4)) return Parse::Badopt;
            s.packet = static_cast<int>(small_value(v));
        } else if (k == atom("line")) {
            if (!is_small(v) || small_value(v) <= 0) return Parse::Badopt;
            s.line = static_cast<size_t>(small_value(v));
        } else if (k == atom("env")) {
            if (!parse_env(v, s)) return Parse::Badopt;
        } else if (k == atom("args")) {
            std::vector<Term> items;
            if (!list_elements(v, items)) return Parse::Badopt;
            for (Term a : items) {
                auto t = string_or_nil(a);
                if (!t) return Parse::Badarg;
                s.args.push_back(*t);
            }
            s.has_args = true;
        } else if (k == atom("arg0")) {
            auto t = string_or_nil(v);
            if (!t) return Parse::Badarg;
            s.arg0 = *t;
        } else if (k == atom("cd")) {
            auto t = text_arg(v);
            if (!t) return Parse::Badopt;
            s.cd = *t;
        } else if (k == atom("kill_timeout")) {  // beamvm's own (docs/ports.md)
            if (!is_small(v) || small_value(v) < 0) return Parse::Badopt;
            s.kill_timeout_ms = small_value(v);
        } else if (k == atom("parallelism") || k == atom("busy_limits_port") || k == atom("busy_limits_msgq")) {
        } else {
            return Parse::Badopt;
        }
    }
    if (!is_nil(opts)) return Parse::Badopt;
    if (only_in || only_out) s.in = only_in, s.out = only_out;
    // {args, _} and {arg0, _} belong to spawn_executable only (OTP: badarg).
    if (s.kind != PortSettings::Kind::SpawnExecutable && (s.has_args || s.arg0)) return Parse::Badarg;
    if (s.packet && s.line) s.line = 0;  // OTP: the last framing option wins; packet is kept
    return Parse::Ok;
}

// The errno of a failed spawn as OTP names it (erl_posix_str's atoms).
Term posix_atom(int err) {
    switch (err) {
    case ENOENT: return atom("enoent");
    case EACCES: return atom("eacces");
    case ENOEXEC: return atom("enoexec");
    case ENOTDIR: return atom("enotdir");
    case EMFILE: return atom("emfile");
    case ENFILE: return atom("enfile");
    case ENOMEM: return atom("enomem");
    case E2BIG: return atom("e2big");
    case EAGAIN: return atom("eagain");
    default: return atom("einval");
    }
}

// A port argument: a port, or the registered name of one.
bool port_arg(Term t) { return is_port(t) || is_atom(t); }
// The port a port argument names (a name of no port stays an atom, which no port operation
// finds).
Term named_port(Process* p, Term t) {
    if (!is_atom(t)) return t;
    Term r = p->vm->procs.whereis(p->ns, t);
    return is_port(r) ? r : t;
}

Term erts_open_port_2(Process* p, const Term* a) {
    PortSettings s;
    // Options that are not a list are badopt whatever the name (erts looks at them first).
    if (!proper_list_length(a[1])) return atom("badopt");
    Parse r = parse_name(a[0], s);
    if (r == Parse::Ok) {
        // A restricted namespace (vm/sandbox.hpp): the inet drivers are the network, os:cmd's
        // shell (os.erl spawns "/bin/sh -s unix:cmd") is os_cmd, every other port is a port.
        Capability need = Capability::Port;
        if (s.kind == PortSettings::Kind::Driver &&
            (s.command == "tcp_inet" || s.command == "udp_inet" || s.command == "sctp_inet"))
            need = Capability::Network;
        else if (s.kind == PortSettings::Kind::Spawn && s.command.ends_with(" -s unix:cmd"))
            need = Capability::OsCmd;
        if (!sandbox_allows(p, need)) [[unlikely]] return capability_denied(p, need);
    }
    if (r == Parse::Ok) r = parse_settings(a[1], s);
    // Nothing to run: erts finds it after the options.
    if (r == Parse::Ok && s.kind == PortSettings::Kind::Spawn && s.command.empty()) r = Parse::Einval;
    if (r == Parse::Badarg) return am::badarg;
    if (r == Parse::Badopt) return atom("badopt");
    if (r == Parse::Einval) return atom("einval");
    int err = 0;
    auto port = port_open(*p->vm, p, s, &err);
    if (!port) return posix_atom(err);
    if (s.kind == PortSettings::Kind::Fd) {
        trace_procs(p, "link", *port);  // the owner is linked to its new port, as erl traces it
        return *port;
    }
    // erl's spawn driver acknowledges its start: erts_internal:open_port/2 answers a reference
    // and the port comes in a message {Ref, Port} that erlang:open_port/2 receives (a traced
    // owner sees it as 'receive'), after the link event.
    Term ref = make_new_ref(*p);
    trace_procs(p, "link", *port);
    p->mailbox_push(make_tuple(*p, {ref, *port}));
    return ref;
}

// A busy port suspends its caller as in erts: the answer is a reference and erlang.erl's
// port_command/3 waits for {Ref, true}, sent when the port has taken the command.
Term erts_port_command_3(Process* p, const Term* a) {
    Term flags = a[2];
    bool nosuspend = false;
    for (; is_list(flags); flags = tail(flags)) {
        if (head(flags) == atom("nosuspend")) nosuspend = true;
        else if (head(flags) != atom("force")) return atom("badopt");
    }
    if (!is_nil(flags)) return atom("badopt");
    if (!port_arg(a[0])) return am::badarg;
    // A binary goes to the port as it is; other iodata is flattened first.
    std::vector<uint8_t> bytes;
    const uint8_t* data;
    size_t size;
    if (is_binary(a[1]) && bit_view(a[1]).byte_aligned()) {
        BitView v = bit_view(a[1]);
        data = v.bytes();
        size = v.byte_size();
    } else {
        if (!iolist_to_bytes(a[1], bytes)) return am::badarg;
        data = bytes.data();
        size = bytes.size();
    }
    Term ref = make_new_ref(*p);
    switch (port_command(*p->vm, named_port(p, a[0]), data, size, p->pid, nosuspend, ref)) {
    case PortOpResult::Ok: return am::true_;
    case PortOpResult::Busy: return am::false_;
    case PortOpResult::Queued: return ref;
    default: return am::badarg;
    }
}

Term erts_port_close_1(Process* p, const Term* a) {
    if (!port_arg(a[0])) return am::badarg;
    return port_close(*p->vm, named_port(p, a[0]), NIL, p->pid) == PortOpResult::Ok ? am::true_ : am::badarg;
}

Term erts_port_connect_2(Process* p, const Term* a) {
    if (!port_arg(a[0]) || !is_local_pid(a[1])) return am::badarg;
    return port_connect(*p->vm, named_port(p, a[0]), a[1]) == PortOpResult::Ok ? am::true_ : am::badarg;
}

// A driver port's control operation; the spawn and fd drivers answer none (OTP: badarg).
// The reply is a byte list (no driver here sets PORT_CONTROL_FLAG_BINARY).
Term erts_port_control_3(Process* p, const Term* a) {
    if (!port_arg(a[0]) || !is_small(a[1]) || small_value(a[1]) < 0 || small_value(a[1]) > 0xffffffff) return am::badarg;
    std::vector<uint8_t> bytes;
    if (!iolist_to_bytes(a[2], bytes)) return am::badarg;
    auto reply = port_control(*p->vm, named_port(p, a[0]), p->pid, static_cast<unsigned>(small_value(a[1])),
                              std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    if (!reply) return am::badarg;
    return make_byte_list(*p, reinterpret_cast<const uint8_t*>(reply->data()), reply->size());
}
Term erts_port_call_3(Process* p, const Term* a) {
    (void)p;
    (void)a;
    return am::badarg;
}

Term erts_port_info_1(Process* p, const Term* a) {
    if (!port_arg(a[0])) return am::badarg;
    Term port = named_port(p, a[0]);
    if (!is_port(port)) return am::undefined;
    std::vector<Term> items;
    for (const char* item : {"registered_name", "name", "links", "id", "connected", "input", "output", "os_pid"}) {
        auto v = port_info_item(*p->vm, p, port, atom(item));
        if (!v) return am::undefined;
        if (*v != NIL) items.push_back(*v);  // a port without a name lists no registered_name
    }
    return make_list_from(*p, items.data(), items.size());
}

Term erts_port_info_2(Process* p, const Term* a) {
    // As erts: something that is neither a port nor a name is badtype; a name is looked up;
    // then the item.
    if (!is_port(a[0]) && !is_atom(a[0])) return atom("badtype");
    Term port = named_port(p, a[0]);
    if (!is_port(port)) return am::undefined;
    if (!is_atom(a[1])) return am::badarg;
    auto v = port_info_item(*p->vm, p, port, a[1]);
    if (!v) return am::undefined;
    if (is_non_value(*v)) return am::badarg;  // an unknown item (erl: badarg, no cause)
    return *v;
}

Term port_set_data_2(Process* p, const Term* a) {
    Term port = named_port(p, a[0]);
    if (!is_port(port) || !port_set_data(*p->vm, port, a[1])) return p->badarg();
    return am::true_;
}

Term port_get_data_1(Process* p, const Term* a) {
    Term port = named_port(p, a[0]);
    auto v = is_port(port) ? port_get_data(*p->vm, p, port) : std::nullopt;
    if (!v) return p->badarg();
    return *v;
}

}  // namespace

// The port's side is kept in the port (scheduler/ports.cpp), which sends a Down signal when
// it closes; a closed port gets {'DOWN', Ref, port, Port, noproc} at once, as in OTP.
Term monitor_port(Process* p, Term target, const MonitorOpts& opts) {
    // {Name, Node}: only this node's ports can be monitored, by their registered name.
    if (is_tuple(target) && tuple_arity(target) == 2 && is_atom(tuple_elem(target, 0)) &&
        tuple_elem(target, 1) == p->vm->node.name())
        target = tuple_elem(target, 0);
    if (!is_port(target) && !is_atom(target)) return p->badarg();
    Term name = NIL;  // monitored by a registered name
    if (is_atom(target)) {
        name = target;
        target = named_port(p, target);
    }
    uint64_t n = next_ref_number();
    Term ref = make_ref_from_number(*p, n);
    MonitorEntry m{};
    const Term* w = boxed_ptr(ref);
    m.ref[0] = w[1].raw, m.ref[1] = w[2].raw, m.ref[2] = w[3].raw;
    m.pid = target;
    m.name = name;
    if (!is_port(target) || !port_monitor(*p->vm, target, p->pid, m.ref, name)) {
        // The monitor ends as it starts: a demonitor-kind alias is never active.
        if (opts.alias && opts.alias_kind == AliasKind::Explicit) alias_activate(p, n, opts.alias_kind);
        Term tag = is_value(opts.tag) ? opts.tag : am::DOWN;
        Term who = name != NIL ? make_tuple(*p, {name, p->vm->node.name()}) : target;
        p->mailbox_push(make_tuple(*p, {tag, ref, atom("port"), who, am::noproc}));
        return ref;
    }
    apply_monitor_opts(p, m, n, opts);
    std::lock_guard lock(p->sched.info_mutex);
    p->sched.monitors.push_back(m);
    return ref;
}

namespace {

Term ports_0(Process* p, const Term*) { return port_list(*p->vm, p); }

Term beamvm_port_children_0(Process* p, const Term*) { return port_children(*p->vm, p); }
Term beamvm_port_policy_counts_0(Process* p, const Term*) { return port_policy_counts(*p->vm, p); }

const BifSpec table[] = {
    {"erts_internal", "open_port", 2, &erts_open_port_2},
    {"erts_internal", "port_command", 3, &erts_port_command_3},
    {"erts_internal", "port_close", 1, &erts_port_close_1},
    {"erts_internal", "port_connect", 2, &erts_port_connect_2},
    {"erts_internal", "port_control", 3, &erts_port_control_3},
    {"erts_internal", "port_call", 3, &erts_port_call_3},
    {"erts_internal", "port_info", 1, &erts_port_info_1},
    {"erts_internal", "port_info", 2, &erts_port_info_2},
    {"erlang", "port_set_data", 2, &port_set_data_2},
    {"erlang", "port_get_data", 1, &port_get_data_1},
    {"erlang", "ports", 0, &ports_0},
    {"beamvm", "port_children", 0, &beamvm_port_children_0},
    {"beamvm", "port_policy_counts", 0, &beamvm_port_policy_counts_0},
};

}  // namespace

std::span<const BifSpec> port_bifs() { return table; }

}  // namespace beam

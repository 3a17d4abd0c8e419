// The os module's natives: environment variables, the OS process id, the performance
// counter and signal dispositions (scheduler/os_signals.hpp). os:cmd/1 needs ports.
#include <unistd.h>

#include <time.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "scheduler/os_signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// A variable name or value as erts reads it: a possibly deep list of characters (no binaries),
// in UTF-8. A name holding '=' is refused; an empty one names no variable.
std::optional<std::string> env_text(Term t) {
    std::string out;
    std::vector<Term> todo{t};  // lists still to read, innermost on top
    while (!todo.empty()) {
        Term l = todo.back();
        todo.pop_back();
        if (is_nil(l)) continue;
        if (!is_list(l)) return std::nullopt;
        Term c = head(l);
        todo.push_back(tail(l));
        if (is_list(c) || is_nil(c)) todo.push_back(c);
        else if (is_small(c) && small_value(c) >= 0 && small_value(c) <= 0x10FFFF) append_utf8(out, uint32_t(small_value(c)));
        else return std::nullopt;
    }
    return out;
}
std::optional<std::string> env_name(Term t) {
    auto name = env_text(t);
    if (name && name->find('=') != std::string::npos) return std::nullopt;
    return name;
}

Term os_getenv_1(Process* p, const Term* a) {
    auto name = env_name(a[0]);
    if (!name) return p->badarg();
    const char* v = name->empty() ? nullptr : std::getenv(name->c_str());
    return v ? make_string(*p, v) : am::false_;
}

Term os_getenv_0(Process* p, const Term*) {

    std::vector<Term> items;
    for (char** e = environ; *e; ++e) items.push_back(make_string(*p, *e));
    return make_list_from(*p, items.data(), items.size());
}

Term os_putenv_2(Process* p, const Term* a) {
    auto name = env_name(a[0]), value = env_text(a[1]);
    if (!name || !value) return p->badarg();
    if (!name->empty()) ::setenv(name->c_str(), value->c_str(), 1);
    return am::true_;
}

Term os_unsetenv_1(Process* p, const Term* a) {
    auto name = env_name(a[0]);
    if (!name) return p->badarg();
    if (!name->empty()) ::unsetenv(name->c_str());
    return am::true_;
}

Term os_getpid_0(Process* p, const Term*) { return make_string(*p, std::to_string(::getpid())); }

// os:env/0: [{Name, Value}] for every variable.
Term os_env_0(Process* p, const Term*) {
    std::vector<Term> items;
    for (char** e = environ; *e; ++e) {
        std::string_view kv(*e);
        size_t eq = kv.find('=', 1);  // a name may start with '=' on some systems; never empty
        if (eq == std::string_view::npos) continue;
        items.push_back(make_tuple(*p, {make_string(*p, kv.substr(0, eq)), make_string(*p, kv.substr(eq + 1))}));
    }
    return make_list_from(*p, items.data(), items.size());
}

// os:perf_counter/0 in its own unit, the nanosecond (erts_internal:perf_counter_unit/0).
Term os_perf_counter_0(Process* p, const Term*) {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return make_integer(*p, int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec);
}

Term os_set_signal_2(Process* p, const Term* a) {
    int signo = is_atom(a[0]) ? signal_number(atom_name(a[0])) : 0;
    SignalDisposition d;
    if (a[1] == atom("default")) d = SignalDisposition::Default;
    else if (a[1] == atom("ignore")) d = SignalDisposition::Ignore;
    else if (a[1] == atom("handle")) d = SignalDisposition::Handle;
    else return p->badarg();
    if (signo == 0) return p->badarg();
    set_os_signal(p->vm, signo, d);
    return am::ok;
}

const BifSpec table[] = {
    {"os", "getenv", 0, &os_getenv_0},
    {"os", "getenv", 1, &os_getenv_1},
    {"os", "putenv", 2, &os_putenv_2},
    {"os", "unsetenv", 1, &os_unsetenv_1},
    {"os", "getpid", 0, &os_getpid_0},
    {"os", "env", 0, &os_env_0},
    {"os", "perf_counter", 0, &os_perf_counter_0},
    {"os", "set_signal", 2, &os_set_signal_2},
};

}  // namespace

std::span<const BifSpec> os_bifs() { return table; }

}  // namespace beam

// The os module's natives: environment variables and the OS process id.
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"

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

// os:env/0: every variable as {Name, Value}.
Term os_env_0(Process* p, const Term*) {
    std::vector<Term> items;
    for (char** e = environ; *e; ++e) {
        std::string_view kv(*e);
        size_t eq = kv.find('=', 1);
        if (eq == std::string_view::npos) continue;
        items.push_back(make_tuple(*p, {make_string(*p, kv.substr(0, eq)),
                                        make_string(*p, kv.substr(eq + 1))}));
    }
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

// os:set_signal(Signal, Option) (OTP: erl_bif_os.c, sys/unix/sys.c): the signals erts lets a
// program choose for, ignored or given their default action. `handle` sends the signal to
// OTP's erl_signal_server, which beamvm does not run: not implemented.
int signal_number(Term sig) {
    static const std::pair<const char*, int> signals[] = {
        {"sighup", SIGHUP},   {"sigquit", SIGQUIT}, {"sigabrt", SIGABRT}, {"sigalrm", SIGALRM},
        {"sigterm", SIGTERM}, {"sigusr1", SIGUSR1}, {"sigusr2", SIGUSR2}, {"sigchld", SIGCHLD},
        {"sigstop", SIGSTOP}, {"sigtstp", SIGTSTP}};
    for (auto [name, n] : signals)
        if (sig == atom(name)) return n;
    return 0;
}

Term os_set_signal_2(Process* p, const Term* a) {
    Term opt = a[1];
    if (opt != atom("ignore") && opt != atom("default") && opt != atom("handle")) {
        p->fcause = atom("badopt");
        return p->badarg();
    }
    int n = signal_number(a[0]);
    if (!n) return p->badarg();
    if (opt == atom("handle")) return p->error(make_tuple(*p, {atom("not_implemented"), atom("handle")}));
    std::signal(n, opt == atom("ignore") ? SIG_IGN : SIG_DFL);  // SIGSTOP refuses; erts says ok too
    return am::ok;
}

Term os_getpid_0(Process* p, const Term*) { return make_string(*p, std::to_string(::getpid())); }

const BifSpec table[] = {
    {"os", "getenv", 0, &os_getenv_0},
    {"os", "getenv", 1, &os_getenv_1},
    {"os", "env", 0, &os_env_0},
    {"os", "set_signal", 2, &os_set_signal_2},
    {"os", "putenv", 2, &os_putenv_2},
    {"os", "unsetenv", 1, &os_unsetenv_1},
    {"os", "getpid", 0, &os_getpid_0},
};

}  // namespace

std::span<const BifSpec> os_bifs() { return table; }

}  // namespace beam

// The os module's natives: environment variables and the OS process id.
#include <unistd.h>

#include <cstdlib>

extern char** environ;

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"

namespace beam {

namespace {

Term os_getenv_1(Process* p, const Term* a) {
    auto name = char_list_to_utf8(a[0]);
    if (!name) return p->badarg();
    const char* v = std::getenv(name->c_str());
    return v ? make_string(*p, v) : am::false_;
}

Term os_getenv_0(Process* p, const Term*) {

    std::vector<Term> items;
    for (char** e = environ; *e; ++e) items.push_back(make_string(*p, *e));
    return make_list_from(*p, items.data(), items.size());
}

Term os_putenv_2(Process* p, const Term* a) {
    auto name = char_list_to_utf8(a[0]), value = char_list_to_utf8(a[1]);
    if (!name || !value || name->empty() || name->find('=') != std::string::npos) return p->badarg();
    ::setenv(name->c_str(), value->c_str(), 1);
    return am::true_;
}

Term os_unsetenv_1(Process* p, const Term* a) {
    auto name = char_list_to_utf8(a[0]);
    if (!name) return p->badarg();
    ::unsetenv(name->c_str());
    return am::true_;
}

Term os_getpid_0(Process* p, const Term*) { return make_string(*p, std::to_string(::getpid())); }

const BifSpec table[] = {
    {"os", "getenv", 0, &os_getenv_0},
    {"os", "getenv", 1, &os_getenv_1},
    {"os", "putenv", 2, &os_putenv_2},
    {"os", "unsetenv", 1, &os_unsetenv_1},
    {"os", "getpid", 0, &os_getpid_0},
};

}  // namespace

std::span<const BifSpec> os_bifs() { return table; }

}  // namespace beam

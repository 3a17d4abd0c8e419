// All BIF families in one table, and lookup by {Module, Name, Arity}. Built once on first
// use (a function-local static, so initialisation is thread-safe); read-only afterwards.
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bifs/bif.hpp"
#include "vm/vm.hpp"
#include "bifs/bif_families.hpp"
#include "vm/atom_table.hpp"

namespace beam {
namespace {

// {Module, Name, Arity} with the names as atoms: a lookup hashes three words and builds no
// string (find_bif runs for every BIF import of every module loaded).
struct Mfa {
    Term module, name;
    unsigned arity;
    bool operator==(const Mfa&) const = default;
};
struct MfaHash {
    size_t operator()(const Mfa& k) const {
        Word h = k.module.raw * 0x9E3779B97F4A7C15ull;
        h = (h ^ (h >> 29) ^ k.name.raw) * 0xBF58476D1CE4E5B9ull;
        return size_t((h ^ (h >> 31)) + k.arity);
    }
};

struct Registry {
    std::vector<const BifSpec*> all;
    std::unordered_map<Mfa, const BifSpec*, MfaHash> by_mfa;
    std::unordered_set<Word> modules;  // atoms

    Registry() {
        for (auto family : sequential_bif_families) add(family());
        for (auto family : nif_module_families) add(family());
        add(system_bifs());
        add(process_bifs());
        add(monitor_bifs());
        add(distribution_bifs());
        add(spawn_request_bifs());
        add(time_bifs());
        add(process_info_bifs());
        add(code_bifs());
        add(code_loading_bifs());
        add(internal_state_bifs());
        add(io_bifs());
        add(host_bifs());
        add(process_flag_bifs());
        add(persistent_term_bifs());
        add(os_bifs());
        add(namespace_bifs());
        add(operator_function_bifs());
        add(memory_bifs());
        add(system_flag_bifs());
        add(suspend_bifs());
        add(counters_bifs());
        add(nif_loading_bifs());
        add(erts_internal_bifs());
        add(match_spec_bifs());
        add(port_bifs());  // ports (issue 9)
        add(erl_ddll_bifs());
        add(ets_bifs());
        add(re_bifs());
        add(trace_bifs());
        add(seq_trace_bifs());
        add(system_monitor_bifs());
        add(system_profile_bifs());
        add(trace_pattern_bifs());
        for (auto family : prim_socket_families) add(family());
    }

    void add(std::span<const BifSpec> specs) {
        for (const BifSpec& spec : specs) {
            all.push_back(&spec);
            Term m = atom(spec.module);
            by_mfa.emplace(Mfa{m, atom(spec.name), spec.arity}, &spec);
            modules.insert(m.raw);
        }
    }
};

const Registry& registry() {
    static const Registry r;
    return r;
}

}  // namespace

std::span<const BifSpec* const> all_bifs() { return registry().all; }

const BifSpec* find_bif(Term module, Term name, unsigned arity) {
    if (!is_atom(module) || !is_atom(name)) return nullptr;
    const Registry& r = registry();
    auto it = r.by_mfa.find(Mfa{module, name, arity});
    return it == r.by_mfa.end() ? nullptr : it->second;
}

const BifSpec* find_bif_in(const VM& vm, Term module, Term name, unsigned arity) {
    if (vm.otp_boot && module == atom("code")) return nullptr;
    return find_bif(module, name, arity);
}

bool has_natives(Term module) { return is_atom(module) && registry().modules.count(module.raw) != 0; }

}  // namespace beam

// All BIF families in one table, and lookup by {Module, Name, Arity}. Built once on first
// use (a function-local static, so initialisation is thread-safe); read-only afterwards.
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bifs/bif.hpp"
#include "vm/vm.hpp"
#include "bifs/bif_families.hpp"
#include "vm/atom_table.hpp"

namespace beam {
namespace {

struct Registry {
    std::vector<const BifSpec*> all;
    std::unordered_map<std::string, const BifSpec*> by_mfa;
    std::unordered_set<std::string_view> modules;

    static std::string key(std::string_view m, std::string_view f, unsigned arity) {
        std::string k;
        k.reserve(m.size() + f.size() + 8);
        k.append(m).push_back(':');
        k.append(f).push_back('/');
        k += std::to_string(arity);
        return k;
    }

    Registry() {
        for (auto family : sequential_bif_families) add(family());
        for (auto family : nif_module_families) add(family());
        add(system_bifs());
        add(process_bifs());
        add(monitor_bifs());
        add(spawn_request_bifs());
        add(time_bifs());
        add(process_info_bifs());
        add(code_bifs());
        add(code_loading_bifs());
        add(internal_state_bifs());
        add(io_bifs());
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
        add(ets_bifs());
        add(re_bifs());
        add(trace_bifs());
        add(seq_trace_bifs());
        add(system_monitor_bifs());
        add(system_profile_bifs());
        add(trace_pattern_bifs());
    }

    void add(std::span<const BifSpec> specs) {
        for (const BifSpec& spec : specs) {
            all.push_back(&spec);
            by_mfa.emplace(key(spec.module, spec.name, spec.arity), &spec);
            modules.insert(spec.module);
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
    auto it = r.by_mfa.find(Registry::key(atom_name(module), atom_name(name), arity));
    return it == r.by_mfa.end() ? nullptr : it->second;
}

const BifSpec* find_bif_in(const VM& vm, Term module, Term name, unsigned arity) {
    if (vm.otp_boot && module == atom("code")) return nullptr;
    return find_bif(module, name, arity);
}

bool has_natives(Term module) { return is_atom(module) && registry().modules.count(atom_name(module)) != 0; }

}  // namespace beam

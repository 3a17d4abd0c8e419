// DTrace/SystemTap user tags: erlang:dt_put_tag/1, dt_get_tag/0, dt_get_tag_data/0,
// dt_prepend_vm_tag_data/1, dt_append_vm_tag_data/1, dt_spread_tag/1, dt_restore_tag/1
// (erts' bif.c). beamvm has no VM probes, so these answer as an erl built without them
// (USE_VM_PROBES undefined, the default build): no tag is ever stored, the tag-data
// functions hand their argument back unchanged, and only the argument checks that remain in
// such a build are made.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"

namespace beam {
namespace {

Term dt_put_tag_1(Process*, const Term*) { return am::undefined; }
Term dt_get_tag_0(Process*, const Term*) { return am::undefined; }
Term dt_get_tag_data_0(Process*, const Term*) { return am::undefined; }
Term dt_prepend_vm_tag_data_1(Process*, const Term* a) { return a[0]; }
Term dt_append_vm_tag_data_1(Process*, const Term* a) { return a[0]; }
Term dt_spread_tag_1(Process* p, const Term* a) { return is_boolean_atom(a[0]) ? am::true_ : p->badarg(); }
// Without probes the only tag data dt_spread_tag/1 ever returns is `true`.
Term dt_restore_tag_1(Process* p, const Term* a) { return a[0] == am::true_ ? am::true_ : p->badarg(); }

constexpr BifSpec table[] = {
    {"erlang", "dt_put_tag", 1, &dt_put_tag_1},
    {"erlang", "dt_get_tag", 0, &dt_get_tag_0},
    {"erlang", "dt_get_tag_data", 0, &dt_get_tag_data_0},
    {"erlang", "dt_prepend_vm_tag_data", 1, &dt_prepend_vm_tag_data_1},
    {"erlang", "dt_append_vm_tag_data", 1, &dt_append_vm_tag_data_1},
    {"erlang", "dt_spread_tag", 1, &dt_spread_tag_1},
    {"erlang", "dt_restore_tag", 1, &dt_restore_tag_1},
};

}  // namespace

std::span<const BifSpec> dtrace_tags_bifs() { return table; }

}  // namespace beam

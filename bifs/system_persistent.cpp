// persistent_term: keys and values copied into the VM's never-collected area, so readers share
// them without copying. Erasing or replacing leaks the old copy (OTP frees it after a global GC).
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/copy_term.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {


const Term* persistent_find(VM& vm, Term key) {
    for (auto& [k, v] : vm.persistent.items)
        if (eq_exact(k, key)) return &v;
    return nullptr;
}

Term pt_get_1(Process* p, const Term* a) {
    std::lock_guard lock(p->vm->persistent.mutex);
    const Term* v = persistent_find(*p->vm, a[0]);
    return v ? *v : p->badarg();
}

Term pt_get_2(Process* p, const Term* a) {
    std::lock_guard lock(p->vm->persistent.mutex);
    const Term* v = persistent_find(*p->vm, a[0]);
    return v ? *v : a[1];
}

Term pt_put_2(Process* p, const Term* a) {
    VM& vm = *p->vm;
    std::lock_guard lock(vm.persistent.mutex);
    Term value = copy_term(a[1], vm.persistent.area);
    for (auto& [k, v] : vm.persistent.items)
        if (eq_exact(k, a[0])) {
            v = value;
            return am::ok;
        }
    vm.persistent.items.push_back({copy_term(a[0], vm.persistent.area), value});
    return am::ok;
}

Term pt_erase_1(Process* p, const Term* a) {
    VM& vm = *p->vm;
    std::lock_guard lock(vm.persistent.mutex);
    auto& items = vm.persistent.items;
    for (size_t i = 0; i < items.size(); ++i)
        if (eq_exact(items[i].first, a[0])) {
            items.erase(items.begin() + long(i));
            return am::true_;
        }
    return am::false_;
}

const BifSpec table[] = {
    {"persistent_term", "get", 1, &pt_get_1},
    {"persistent_term", "get", 2, &pt_get_2},
    {"persistent_term", "put", 2, &pt_put_2},
    {"persistent_term", "erase", 1, &pt_erase_1},
};

}  // namespace

std::span<const BifSpec> persistent_term_bifs() { return table; }

}  // namespace beam

#include "vm/term_magic_ref.hpp"

#include <mutex>
#include <unordered_map>

#include "vm/term_refs.hpp"

namespace beam {

namespace {

// Live magic objects by the number of their reference, for revive_magic_ref. Shared by every
// VM in the OS process, as reference numbers are.
struct Registry {
    std::mutex mutex;
    std::unordered_map<uint64_t, MagicObject*> objects;
};

Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: objects may outlive static teardown
    return *r;
}

Term build(TermAllocator& a, MagicObject* obj, uint64_t n) {
    Term* hp = a.alloc(MAGIC_REF_WORDS);
    hp[0] = make_header(Sub::Ref, MAGIC_REF_ARITY);
    hp[1] = Term{n & 0x3FFFF};
    hp[2] = Term{(n >> 18) & 0xFFFFFFFF};
    hp[3] = Term{n >> 50};
    hp[4] = Term{reinterpret_cast<Word>(obj)};
    hp[5] = Term{0};
    a.link_offheap(hp);
    return make_boxed(hp);
}

}  // namespace

MagicObject::~MagicObject() {
    uint64_t n = ref_number_.load(std::memory_order_relaxed);
    if (n == 0) return;
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.objects.erase(n);
}

Term make_magic_ref(TermAllocator& a, MagicObject* obj) {
    uint64_t n = obj->ref_number_.load(std::memory_order_acquire);
    if (n == 0) {
        Registry& r = registry();
        std::lock_guard lock(r.mutex);
        n = obj->ref_number_.load(std::memory_order_relaxed);
        if (n == 0) {  // two natives may make the first reference of one object at once
            n = next_ref_number();
            r.objects.emplace(n, obj);
            obj->ref_number_.store(n, std::memory_order_release);
        }
    }
    obj->retain();
    return build(a, obj, n);
}

Term revive_magic_ref(TermAllocator& a, uint64_t n) {
    Registry& r = registry();
    MagicObject* obj = nullptr;
    {
        std::lock_guard lock(r.mutex);
        auto it = r.objects.find(n);
        if (it == r.objects.end() || !it->second->try_retain()) return NON_VALUE;
        obj = it->second;
    }
    return build(a, obj, n);
}

}  // namespace beam

// Binaries tied to native objects (vm/binary_owner.hpp). A map rather than a field of
// BinaryBlob: very few blobs have an owner, and every other blob then pays one relaxed load
// when it is freed.
#include "vm/binary_owner.hpp"

#include <mutex>
#include <unordered_map>

#include "vm/term_magic_ref.hpp"

namespace beam {

namespace {
std::mutex owners_mutex;
std::unordered_map<const BinaryBlob*, MagicObject*>& owners() {
    static auto* m = new std::unordered_map<const BinaryBlob*, MagicObject*>;
    return *m;
}
}  // namespace

namespace detail {
std::atomic<size_t> owned_blobs{0};

void drop_blob_owner(const BinaryBlob* blob) {
    MagicObject* owner = nullptr;
    {
        std::lock_guard lock(owners_mutex);
        auto it = owners().find(blob);
        if (it == owners().end()) return;
        owner = it->second;
        owners().erase(it);
        owned_blobs.fetch_sub(1, std::memory_order_relaxed);
    }
    owner->release();  // after the lock: it may run a resource's destructor
}
}  // namespace detail

void set_blob_owner(BinaryBlob* blob, MagicObject* owner) {
    std::lock_guard lock(owners_mutex);
    owners()[blob] = owner;
    detail::owned_blobs.fetch_add(1, std::memory_order_relaxed);
}

MagicObject* blob_owner(const BinaryBlob* blob) {
    if (detail::owned_blobs.load(std::memory_order_relaxed) == 0) return nullptr;
    std::lock_guard lock(owners_mutex);
    auto it = owners().find(blob);
    return it == owners().end() ? nullptr : it->second;
}

}  // namespace beam

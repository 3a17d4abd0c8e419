// Magic references: references with a native object attached (OTP's "magic refs"). They are
// what atomics:new/2, counters:new/2, zlib:open/0 and crypto:hash_init/1 return: to Erlang an
// ordinary reference (is_reference/1, printing, ordering, =:= by id), to natives a handle on an
// object that lives off the heap and is freed when the last term referring to it is collected.
//
//   [hdr Ref arity=5][id0][id1][id2][MagicObject*][next off-heap object or null]
//
// Words 1-3 are a plain reference's ids (vm/term_refs.hpp). The object is reference counted:
// each heap copy of the term holds one count and sits on its owner's off-heap list
// (vm/heap_offheap.hpp), like a RefcBin, so GC, message copies, process exit and literal areas
// (persistent_term) release it the same way.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

// A kind of magic object derives from MagicKind<itself> (below), never from this directly.
class MagicObject {
public:
    explicit MagicObject(const void* kind) : kind_(kind) {}
    MagicObject(const MagicObject&) = delete;
    MagicObject& operator=(const MagicObject&) = delete;
    virtual ~MagicObject();

    void retain() { refc_.fetch_add(1, std::memory_order_relaxed); }
    // A count for a new holder, unless the object is already being destroyed.
    bool try_retain() {
        uint64_t n = refc_.load(std::memory_order_relaxed);
        while (n != 0)
            if (refc_.compare_exchange_weak(n, n + 1, std::memory_order_relaxed)) return true;
        return false;
    }
    void release() {
        // acq_rel: the last owner must see every write other owners made before releasing.
        if (refc_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }
    // Words the object's memory counts for in erlang:memory/0 (binary) and process_info.
    virtual size_t byte_size() const { return sizeof(*this); }
    // The number of its reference (0 until it has one): revive_magic_ref(a, n) builds that
    // same reference again, if the object still lives (a native's weak handle on it).
    uint64_t ref_number() const { return ref_number_.load(std::memory_order_acquire); }
    const void* kind() const { return kind_; }

private:
    friend Term make_magic_ref(TermAllocator& a, MagicObject* obj);
    std::atomic<uint64_t> refc_{0};
    std::atomic<uint64_t> ref_number_{0};  // the id of its reference; 0 until it has one
    const void* const kind_;               // MagicKind<its class>::tag()
};

// The base of each kind of magic object: `class Counters final : public MagicKind<Counters>`.
// Its kind is the address of a tag of its own, which magic_cast compares with one load from the
// object. (The natives of ets, counters and atomics resolve their handle on every call; a
// type_info comparison there was a chain of four dependent loads, 5.6% of an ETS-bound run.)
template <class T>
class MagicKind : public MagicObject {
public:
    static const void* tag() { return &tag_; }

protected:
    MagicKind() : MagicObject(&tag_) {}

private:
    static constexpr char tag_ = 0;
};

inline constexpr Word MAGIC_REF_WORDS = 6;
inline constexpr Word MAGIC_REF_ARITY = MAGIC_REF_WORDS - 1;

// A reference for `obj`, built in `a` and linked into its off-heap list: a fresh id the first
// time, the same id (an =:= term) each time after (enif_make_resource of one object). The term
// holds a count of its own.
Term make_magic_ref(TermAllocator& a, MagicObject* obj);

// binary_to_term of a reference that names a live magic object (its term_to_binary form, or
// one sent through the external format) gives back the magic reference, as in OTP: the
// reference of that object if it still exists, else NON_VALUE (an ordinary reference then).
Term revive_magic_ref(TermAllocator& a, uint64_t ref_number);

inline bool is_magic_ref(Term t) {
    return is_boxed_sub(t, Sub::Ref) && header_arity(box_header(t)) == MAGIC_REF_ARITY;
}
inline MagicObject* magic_object(Term t) { return reinterpret_cast<MagicObject*>(boxed_ptr(t)[4].raw); }

// The object of a magic reference if it is a T, else null (any other term, or another kind).
template <class T>
T* magic_cast(Term t) {
    static_assert(std::is_base_of_v<MagicKind<T>, T>, "a kind of magic object derives from MagicKind<itself>");
    if (!is_magic_ref(t)) return nullptr;
    MagicObject* o = magic_object(t);
    return o->kind() == MagicKind<T>::tag() ? static_cast<T*>(o) : nullptr;
}

}  // namespace beam

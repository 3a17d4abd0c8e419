// Shared by the bignum*.cpp files: a uniform (magnitude, sign) view of any integer term.
#pragma once

#include <gmp.h>

#include <algorithm>
#include <memory>

#include "vm/bignum.hpp"

namespace beam::bigint {

static_assert(sizeof(mp_limb_t) == sizeof(uint64_t), "bignum limbs are 64-bit GMP limbs");

// A small's magnitude lives in `one`, so a view must not be copied (it would dangle).
struct IntView {
    const uint64_t* limbs;
    size_t n;  // 0 for zero; otherwise limbs[n-1] != 0
    bool neg;
    uint64_t one;

    explicit IntView(Term x) {
        if (is_small(x)) {
            SWord v = small_value(x);
            neg = v < 0;
            one = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
            limbs = &one;
            n = one ? 1 : 0;
        } else {
            limbs = big_limbs(x);
            n = big_limb_count(x);
            while (n && limbs[n - 1] == 0) --n;
            neg = big_is_negative(x);
        }
    }
    IntView(const IntView&) = delete;
    IntView& operator=(const IntView&) = delete;
    const mp_limb_t* mp() const { return reinterpret_cast<const mp_limb_t*>(limbs); }
};

// One operation's scratch limbs, zeroed: up to INLINE of them (a 512-bit number) in the object
// itself, more on the heap. A std::vector cost an allocation and a free for every bignum sum,
// product and bitwise operation (a loop of (X * 1103515245 + 12345) band 16#7fffffff spent a
// fifth of its time in operator new and delete).
class Limbs {
public:
    static constexpr size_t INLINE = 8;
    explicit Limbs(size_t n, uint64_t fill = 0) : n_(n) {
        if (n > INLINE) heap_ = std::make_unique<uint64_t[]>(n);
        p_ = n > INLINE ? heap_.get() : inline_;
        std::fill_n(p_, n, fill);
    }
    Limbs(const Limbs&) = delete;
    Limbs& operator=(const Limbs&) = delete;
    uint64_t* data() { return p_; }
    size_t size() const { return n_; }
    uint64_t& operator[](size_t i) { return p_[i]; }
    uint64_t& back() { return p_[n_ - 1]; }
    uint64_t* begin() { return p_; }
    uint64_t* end() { return p_ + n_; }

private:
    size_t n_;
    std::unique_ptr<uint64_t[]> heap_;
    uint64_t inline_[INLINE];
    uint64_t* p_;
};

inline mp_limb_t* mp(uint64_t* p) { return reinterpret_cast<mp_limb_t*>(p); }

// Compares magnitudes.
inline int mag_compare(const uint64_t* a, size_t an, const uint64_t* b, size_t bn) {
    if (an != bn) return an < bn ? -1 : 1;
    if (an == 0) return 0;
    int c = mpn_cmp(reinterpret_cast<const mp_limb_t*>(a), reinterpret_cast<const mp_limb_t*>(b), an);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
}

}  // namespace beam::bigint

// Integer <-> text in bases 2..36 (integer_to_list/2, list_to_integer/2, printing).
#include "vm/bignum_internal.hpp"

#include <string>
#include <vector>

namespace beam {

using namespace bigint;

namespace {

constexpr char DIGITS[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

unsigned floor_log2(unsigned b) {
    unsigned r = 0;
    while (b >>= 1) ++r;
    return r;
}

}  // namespace

std::string int_to_string(Term x, unsigned base) {
    IntView v(x);
    if (v.n == 0) return "0";
    std::string out;
    if (v.n == 1) {
        uint64_t m = v.limbs[0];
        char buf[72];
        size_t i = sizeof buf;
        while (m) {
            buf[--i] = DIGITS[m % base];
            m /= base;
        }
        if (v.neg) out.push_back('-');
        out.append(buf + i, sizeof buf - i);
        return out;
    }
    // mpn_get_str clobbers its input and wants room for every digit the magnitude can need.
    std::vector<uint64_t> work(v.limbs, v.limbs + v.n);
    work.push_back(0);  // GMP may use one limb past the operand for some bases
    size_t max_digits = v.n * 64 / floor_log2(base) + 2;
    std::string digits(max_digits, '\0');
    size_t len = mpn_get_str(reinterpret_cast<unsigned char*>(digits.data()), int(base), mp(work.data()), v.n);
    size_t start = 0;
    while (start + 1 < len && digits[start] == 0) ++start;  // GMP may emit leading zeros
    out.reserve(len - start + 1);
    if (v.neg) out.push_back('-');
    for (size_t i = start; i < len; ++i) out.push_back(DIGITS[uint8_t(digits[i])]);
    return out;
}

std::optional<Term> int_from_string(TermAllocator& a, std::string_view s, unsigned base) {
    if (base < 2 || base > 36) return std::nullopt;
    bool neg = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s.empty()) return std::nullopt;
    std::string digits;
    digits.reserve(s.size());
    for (char c : s) {
        int d = digit_value(c);
        if (d >= int(base)) return std::nullopt;
        if (digits.empty() && d == 0) continue;  // mpn_set_str wants no leading zeros
        digits.push_back(char(d));
    }
    if (digits.empty()) return make_small(0);
    if (digits.size() <= 11) {  // 36^11 < 2^59: the value is a small
        SWord v = 0;
        for (char d : digits) v = v * SWord(base) + d;
        return make_small(neg ? -v : v);
    }
    size_t max_limbs = digits.size() * (floor_log2(base) + 1) / 64 + 2;
    Limbs r(max_limbs, 0);
    size_t n = mpn_set_str(mp(r.data()), reinterpret_cast<const unsigned char*>(digits.data()), digits.size(),
                           int(base));
    return make_integer_limbs(a, r.data(), n, neg);
}

}  // namespace beam

// erlang:iolist_to_iovec/1 (erts' erl_io_queue.c): iodata as a list of binaries, with large
// binaries passed through by reference and everything small copied together.
//
// Which binaries come out is observable (their sizes, binary:referenced_byte_size/1), so the
// accumulator follows erts' rules: bytes and binaries under SMALL_BIN_LIMIT are appended to
// it; a large binary is passed on as it is when the accumulator is empty or already large,
// and otherwise tops the accumulator up to SMALL_BIN_LIMIT and goes on as the rest of itself;
// the accumulator grows by doubling and is emitted (rather than grown) once its capacity has
// reached ACC_REALLOCATION_LIMIT. erts also cuts a run of bytes where the time slice would
// end (about a million bytes into a slice); beamvm does the whole call in one go, so a single
// run of bytes longer than that stays in one piece here.
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

constexpr size_t ONHEAP_BIN_LIMIT = 64;                        // ERL_ONHEAP_BIN_LIMIT
constexpr size_t SMALL_BIN_LIMIT = ONHEAP_BIN_LIMIT * 4;       // IOL2V_SMALL_BIN_LIMIT
constexpr size_t ACC_REALLOCATION_LIMIT = SMALL_BIN_LIMIT * 32;  // non-debug erts

struct Iovec {
    Process* p = nullptr;
    std::vector<Term> out;
    std::string acc;
    size_t capacity = 0;  // what erts would have allocated for `acc`

    void promote() {
        out.push_back(make_binary(*p, reinterpret_cast<const uint8_t*>(acc.data()), acc.size()));
        acc.clear();
        capacity = 0;
    }
    // erts' iol2v_expand_acc, for the capacity it decides on.
    void reserve(size_t extra) {
        size_t required = acc.size() + extra;
        if (capacity == 0) {
            capacity = std::max(required, SMALL_BIN_LIMIT);
        } else if (required > capacity) {
            if (capacity >= ACC_REALLOCATION_LIMIT) {
                promote();
                reserve(extra);
                return;
            }
            capacity = std::max(required, capacity * 2);
        }
    }
    void append(std::string_view bytes) {
        reserve(bytes.size());
        acc.append(bytes);
    }
    bool binary(Term b) {
        if (!is_binary_obj(b) || !bit_view(b).whole_bytes()) return false;
        std::string scratch;
        std::string_view bytes = binary_bytes(b, scratch);
        size_t size = bytes.size();
        if (size == 0) return true;
        bool acc_small = acc.size() < SMALL_BIN_LIMIT, bin_small = size < SMALL_BIN_LIMIT;
        if (!bin_small && (acc.empty() || !acc_small)) {
            if (!acc.empty()) promote();
            out.push_back(b);
        } else if (bin_small || size + acc.size() < SMALL_BIN_LIMIT * 2) {
            append(bytes);
        } else {
            size_t spill = SMALL_BIN_LIMIT - acc.size();
            append(bytes.substr(0, spill));
            Term rest = make_sub_binary(*p, b, spill * 8, (size - spill) * 8);
            promote();
            out.push_back(rest);
        }
        return true;
    }
};

Term iolist_to_iovec_1(Process* p, const Term* a) {
    Term t = a[0];
    if (is_nil(t)) return NIL;
    if (is_binary_obj(t)) {
        if (!bit_view(t).whole_bytes()) return p->badarg();
        return bit_view(t).byte_size() == 0 ? NIL : make_list_from(*p, &t, 1);
    }
    if (!is_list(t)) return p->badarg();
    Iovec v;
    v.p = p;
    std::vector<Term> pending;  // tails to come back to, innermost last
    for (Term it = t;;) {
        while (is_list(it)) {
            Term h = head(it);
            if (is_small(h)) {
                std::string run;  // a run of bytes of this list level
                for (; is_list(it) && is_small(head(it)); it = tail(it)) {
                    int64_t c = small_value(head(it));
                    if (c < 0 || c > 255) return p->badarg();
                    run.push_back(char(c));
                }
                v.append(run);
                continue;
            }
            if (is_list(h) || is_nil(h)) {
                if (!is_nil(tail(it))) pending.push_back(tail(it));
                it = h;
                continue;
            }
            if (!v.binary(h)) return p->badarg();
            it = tail(it);
        }
        if (!is_nil(it) && !v.binary(it)) return p->badarg();
        if (pending.empty()) break;
        it = pending.back();
        pending.pop_back();
    }
    if (!v.acc.empty()) v.promote();
    return make_list_from(*p, v.out.data(), v.out.size());
}

constexpr BifSpec table[] = {
    {"erlang", "iolist_to_iovec", 1, &iolist_to_iovec_1},
};

}  // namespace

std::span<const BifSpec> iolist_iovec_bifs() { return table; }

}  // namespace beam

// erlang:md5/1, md5_init/0, md5_update/2, md5_final/1 (erts' erl_bif_chksum.c), over the
// shared MD5 in vm/md5.hpp.
//
// The context these BIFs pass around is OTP's MD5_CTX as an 88-byte binary, and its buffer
// bytes depend on how the input was cut into MD5 updates. OTP walks iodata 100 bytes per
// time slice (do_chksum with a budget of 100, trapping when it runs out) and feeds each run
// of bytes of one list level, and each binary, as one update, cut where the budget ends.
// feed_iodata reproduces those cuts, so md5_update/2 returns the same binary as erl.
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/binary.hpp"
#include "vm/md5.hpp"

namespace beam {
namespace {

constexpr size_t CHKSUM_BUDGET = 100;  // bytes per slice in erts' md5_1/md5_update_2

// Walks `t` as OTP's do_chksum does and calls emit(bytes) for each MD5 update it would make;
// false if `t` is not iodata (a bitstring that is not whole bytes, an element that is neither
// a byte, a binary nor a list, an improper tail that is not a binary).
template <class Emit>
bool cut_iodata(Term t, Emit emit) {
    size_t budget = CHKSUM_BUDGET;
    std::string run;
    auto spend = [&](size_t n) {
        budget -= n;
        if (budget == 0) budget = CHKSUM_BUDGET;  // a trap: the next slice starts afresh
    };
    auto flush = [&] {
        if (!run.empty()) emit(std::string_view(run));
        run.clear();
    };
    auto binary = [&](Term b) {
        if (!is_binary_obj(b)) return false;
        std::string scratch;
        BitView v = bit_view(b);
        if (!v.whole_bytes()) return false;
        std::string_view bytes = binary_bytes(b, scratch);
        do {
            size_t take = std::min(bytes.size(), budget);
            emit(bytes.substr(0, take));
            bytes.remove_prefix(take);
            spend(take);
        } while (!bytes.empty());
        return true;
    };
    if (is_binary_obj(t)) return binary(t);
    if (!is_list(t) && !is_nil(t)) return false;
    std::vector<Term> pending{t};  // list tails still to walk, innermost last
    while (!pending.empty()) {
        Term l = pending.back();
        pending.pop_back();
        for (; is_list(l); l = tail(l)) {
            Term h = head(l);
            if (is_small(h) && small_value(h) >= 0 && small_value(h) <= 255) {
                run.push_back(char(small_value(h)));
                if (budget == 1) flush();  // the run ends with the slice
                spend(1);
                continue;
            }
            flush();
            if (is_nil(h)) continue;
            if (is_list(h)) {
                pending.push_back(tail(l));
                pending.push_back(h);
                break;
            }
            if (!binary(h)) return false;
        }
        if (is_list(l)) continue;  // descended into a sublist
        flush();
        if (!is_nil(l) && !binary(l)) return false;
    }
    return true;
}

// Checked in full before any update (a first walk that only validates), so a failure
// leaves nothing half-fed and valid input is not copied.
bool feed_iodata(Md5& md5, Term t) {
    if (!cut_iodata(t, [](std::string_view) {})) return false;
    cut_iodata(t, [&](std::string_view c) { md5.update({reinterpret_cast<const uint8_t*>(c.data()), c.size()}); });
    return true;
}

Term context_binary(Process* p, const Md5& md5) {
    uint8_t ctx[Md5::CONTEXT_BYTES];
    md5.save(ctx);
    return make_binary(*p, ctx, sizeof ctx);
}

// A context is any binary of exactly 88 bytes, as in OTP (its contents are not checked).
bool read_context(Term t, Md5& out) {
    if (!is_binary(t)) return false;
    std::string scratch;
    std::string_view bytes = binary_bytes(t, scratch);
    if (bytes.size() != Md5::CONTEXT_BYTES) return false;
    out = Md5::restore(reinterpret_cast<const uint8_t*>(bytes.data()));
    return true;
}

Term digest(Process* p, Md5& md5) {
    uint8_t out[16];
    md5.finish(out);
    return make_binary(*p, out, sizeof out);
}

Term md5_1(Process* p, const Term* a) {
    Md5 md5;
    if (!feed_iodata(md5, a[0])) return p->badarg();
    return digest(p, md5);
}

Term md5_init_0(Process* p, const Term*) { return context_binary(p, Md5()); }

Term md5_update_2(Process* p, const Term* a) {
    Md5 md5;
    if (!read_context(a[0], md5) || !feed_iodata(md5, a[1])) return p->badarg();
    return context_binary(p, md5);
}

Term md5_final_1(Process* p, const Term* a) {
    Md5 md5;
    if (!read_context(a[0], md5)) return p->badarg();
    return digest(p, md5);
}

constexpr BifSpec table[] = {
    {"erlang", "md5", 1, &md5_1},
    {"erlang", "md5_init", 0, &md5_init_0},
    {"erlang", "md5_update", 2, &md5_update_2},
    {"erlang", "md5_final", 1, &md5_final_1},
};

}  // namespace

std::span<const BifSpec> md5_bifs() { return table; }

}  // namespace beam

// The iodata walk of erts' checksum BIFs (erl_bif_chksum.c's do_chksum), shared by md5
// (bifs/md5.cpp) and crc32/adler32 (bifs/checksums.cpp).
//
// erts feeds a checksum each run of bytes of one list level, and each binary, as one update,
// and stops after `slice` bytes to trap (100 for MD5); the next slice starts a new update.
// For MD5 those cuts are observable (md5_update/2's context keeps the buffered bytes); for
// CRC-32 and Adler-32 they are not, but the accepted input is the same.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "bifs/iolist.hpp"
#include "vm/binary.hpp"
#include "vm/term.hpp"

namespace beam {

// Walks `t` as erts' do_chksum does, `slice` bytes per time slice, and calls emit(bytes) for
// each update it would make; false if `t` is not iodata (a bitstring that is not whole bytes,
// an element that is neither a byte, a binary nor a list, an improper tail that is not a
// binary). Updates made before a failure are the caller's to discard.
template <class Emit>
bool walk_chksum_iodata(Term t, size_t slice, Emit emit) {
    size_t budget = slice;
    std::string run;
    auto spend = [&](size_t n) {
        budget -= n;
        if (budget == 0) budget = slice;  // a trap: the next slice starts afresh
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

}  // namespace beam

// erlang:md5/1, md5_init/0, md5_update/2, md5_final/1 (erts' erl_bif_chksum.c), over the
// shared MD5 in vm/md5.hpp.
//
// The context these BIFs pass around is OTP's MD5_CTX as an 88-byte binary, and its buffer
// bytes depend on how the input was cut into MD5 updates; the walk in bifs/chksum_iodata.hpp
// makes erts' cuts (100 bytes per slice for MD5), so md5_update/2 returns the same binary.
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/chksum_iodata.hpp"
#include "vm/binary.hpp"
#include "vm/md5.hpp"

namespace beam {
namespace {

constexpr size_t MD5_SLICE_BYTES = 100;  // do_chksum's budget in erts' md5_1/md5_update_2

// Checked in full before any update (a first walk that only validates), so a failure
// leaves nothing half-fed and valid input is not copied.
bool feed_iodata(Md5& md5, Term t) {
    if (!walk_chksum_iodata(t, MD5_SLICE_BYTES, [](std::string_view) {})) return false;
    walk_chksum_iodata(t, MD5_SLICE_BYTES, [&](std::string_view c) {
        md5.update({reinterpret_cast<const uint8_t*>(c.data()), c.size()});
    });
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

// OTP's prim_buffer natives (erts/preloaded/src/prim_buffer.erl): a byte queue behind a
// magic reference that prim_file.erl uses as its read-ahead buffer (and read_line's line
// buffer). new/0, size/1, peek_head/1, copying_read/2, write/2, skip/2, find_byte_index/2,
// try_lock/1, unlock/1. Reading or skipping more than the buffer holds is badarg, as in
// erts. The bytes live in one contiguous block, consumed from `head`: peek_head/1 hands out
// everything buffered as its one "head" binary, which prim_buffer.erl's read_iovec/2
// accepts (it splits what it needs).
#include <cstring>
#include <mutex>
#include <string>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {

namespace {

class ByteBuffer final : public MagicKind<ByteBuffer> {
public:
    size_t byte_size() const override { return sizeof(*this) + bytes.capacity(); }
    size_t size() const { return bytes.size() - head; }
    const char* data() const { return bytes.data() + head; }
    void consume(size_t n) {
        head += n;
        if (head == bytes.size()) {
            bytes.clear();
            head = 0;
        } else if (head > 65536 && head * 2 > bytes.size()) {
            bytes.erase(0, head);
            head = 0;
        }
    }

    std::mutex mutex;
    std::string bytes;
    size_t head = 0;
    std::atomic<bool> external_lock{false};  // try_lock/unlock: prim_file's own protocol
};

ByteBuffer* buffer_of(Term t) { return magic_cast<ByteBuffer>(t); }

bool size_arg(Term t, uint64_t& out) {
    if (is_small(t) && small_value(t) >= 0) return out = uint64_t(small_value(t)), true;
    if (is_big(t) && !big_is_negative(t) && big_limb_count(t) == 1) return out = big_limbs(t)[0], true;
    return false;
}

Term new_0(Process* p, const Term*) { return make_magic_ref(*p, new ByteBuffer()); }

Term size_1(Process* p, const Term* a) {
    ByteBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    std::lock_guard lock(b->mutex);
    return make_integer_u(*p, b->size());
}

Term peek_head_1(Process* p, const Term* a) {
    ByteBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    std::lock_guard lock(b->mutex);
    if (b->size() == 0) return p->badarg();
    return make_binary(*p, std::string_view(b->data(), b->size()));
}

Term copying_read_2(Process* p, const Term* a) {
    ByteBuffer* b = buffer_of(a[0]);
    uint64_t n;
    if (!b || !size_arg(a[1], n)) return p->badarg();
    std::lock_guard lock(b->mutex);
    if (b->size() < n) return p->badarg();
    Term bin = make_binary(*p, std::string_view(b->data(), n));
    b->consume(n);
    return bin;
}

Term write_2(Process* p, const Term* a) {
    ByteBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    Term t = a[1];
    for (; is_list(t); t = tail(t))
        if (!is_binary(head(t))) return p->badarg();
    if (t != NIL) return p->badarg();
    std::lock_guard lock(b->mutex);
    std::string scratch;
    for (t = a[1]; is_list(t); t = tail(t)) {
        BitView v = bit_view(head(t));
        if (v.byte_aligned()) {
            b->bytes.append(reinterpret_cast<const char*>(v.bytes()), v.byte_size());
        } else {
            scratch.assign(v.byte_size(), '\0');
            copy_bits(v.base, v.bit_offset, reinterpret_cast<uint8_t*>(scratch.data()), 0, v.bit_size);
            b->bytes += scratch;
        }
    }
    return am::ok;
}

Term skip_2(Process* p, const Term* a) {
    ByteBuffer* b = buffer_of(a[0]);
    uint64_t n;
    if (!b || !size_arg(a[1], n)) return p->badarg();
    std::lock_guard lock(b->mutex);
    if (b->size() < n) return p->badarg();
    b->consume(n);
    return am::ok;
}

Term find_byte_index_2(Process* p, const Term* a) {
    ByteBuffer* b = buffer_of(a[0]);
    if (!b || !is_small(a[1])) return p->badarg();
    int64_t needle = small_value(a[1]);
    if (needle < 0 || needle > 255) return p->badarg();
    std::lock_guard lock(b->mutex);
    const void* hit = std::memchr(b->data(), int(needle), b->size());
    if (!hit) return atom("not_found");
    return make_tuple(*p, {am::ok, make_integer_u(*p, uint64_t(static_cast<const char*>(hit) - b->data()))});
}

Term try_lock_1(Process* p, const Term* a) {
    ByteBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    bool expected = false;
    return atom(b->external_lock.compare_exchange_strong(expected, true) ? "acquired" : "busy");
}

Term unlock_1(Process* p, const Term* a) {
    ByteBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    bool expected = true;
    if (!b->external_lock.compare_exchange_strong(expected, false)) return p->error(atom("lock_order_violation"));
    return am::ok;
}

constexpr BifSpec table[] = {
    {"prim_buffer", "new", 0, &new_0},
    {"prim_buffer", "size", 1, &size_1},
    {"prim_buffer", "peek_head", 1, &peek_head_1},
    {"prim_buffer", "copying_read", 2, &copying_read_2},
    {"prim_buffer", "write", 2, &write_2},
    {"prim_buffer", "skip", 2, &skip_2},
    {"prim_buffer", "find_byte_index", 2, &find_byte_index_2},
    {"prim_buffer", "try_lock", 1, &try_lock_1},
    {"prim_buffer", "unlock", 1, &unlock_1},
};

}  // namespace

std::span<const BifSpec> prim_buffer_bifs() { return table; }

}  // namespace beam

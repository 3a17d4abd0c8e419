// OTP's zlib natives for a stream's life outside compression itself: open_nif/0, close_nif/1,
// set_controller_nif/2, enqueue_nif/2 (the input queue), the stash, getBufSize/setBufSize
// and crc32_nif/1; and the stream object's own services (bifs/zlib_stream.hpp).
// Semantics and errors follow erts' zlib NIF (erts/emulator/nifs/common/zlib_nif.c), which
// zlib.erl is written against.
#include <climits>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "bifs/zlib_stream.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beam {

ZStream::~ZStream() {
    close();
    clear_stash();
}

void ZStream::close() {
    if (state == State::Deflate) deflateEnd(&zs);
    if (state == State::Inflate) inflateEnd(&zs);
    if (state != State::Closed) clear_stash();
    state = State::Closed;
}

void ZStream::clear_stash() {
    if (has_stash) discard_buffer(stash);
    has_stash = false;
}

void ZStream::reset_input() {
    input.clear();
    head_offset = 0;
    input_bytes = 0;
    clear_stash();
}

void ZStream::enqueue(std::string_view bytes) {
    if (bytes.empty()) return;
    input.emplace_back(bytes);
    input_bytes += bytes.size();
}

void ZStream::dequeue(size_t n) {
    input_bytes -= n;
    while (n > 0) {
        size_t left = input.front().size() - head_offset;
        if (n < left) {
            head_offset += n;
            return;
        }
        n -= left;
        input.pop_front();
        head_offset = 0;
    }
}

Term zlib_atom_not_initialized() {
    static const Term a = atom("not_initialized");
    return a;
}
Term zlib_atom_already_initialized() {
    static const Term a = atom("already_initialized");
    return a;
}

bool zlib_int_arg(Term t, int& out) {
    if (!is_small(t) || small_value(t) < INT_MIN || small_value(t) > INT_MAX) return false;
    out = int(small_value(t));
    return true;
}

ZStream* zstream_of(Process* p, Term t, std::unique_lock<std::mutex>& lock) {
    static const Term not_controller = atom("not_on_controlling_process");
    auto* z = magic_cast<ZStream>(t);
    if (!z) {
        p->badarg();
        return nullptr;
    }
    lock = std::unique_lock(z->mutex);
    if (z->controller != p->pid) {
        p->error(not_controller);
        return nullptr;
    }
    return z;
}

Term zlib_result(Process* p, int code) {
    switch (code) {
    case Z_OK: return am::ok;
    case Z_STREAM_END: return atom("stream_end");
    case Z_ERRNO: return make_integer(*p, errno);
    case Z_STREAM_ERROR: return p->error(atom("stream_error"));
    case Z_DATA_ERROR: return p->error(atom("data_error"));
    case Z_MEM_ERROR: return atom("mem_error");
    case Z_BUF_ERROR: return atom("buf_error");
    case Z_VERSION_ERROR: return atom("version_error");
    default: return atom("unknown_error");
    }
}

namespace {

Term open_nif_0(Process* p, const Term*) { return make_magic_ref(*p, new ZStream(p->pid)); }

Term close_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (z->state == ZStream::State::Closed) return p->error(zlib_atom_not_initialized());
    z->close();
    return am::ok;
}

Term set_controller_nif_2(Process* p, const Term* a) {
    if (!magic_cast<ZStream>(a[0]) || !is_local_pid(a[1])) return p->badarg();
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    z->controller = a[1];
    return am::ok;
}

// Queues the binaries of an iovec (erlang:iolist_to_iovec/1), at most 256 per call as erl's
// NIF does; {continue, Rest} hands the rest back to zlib.erl's loop.
Term enqueue_nif_2(Process* p, const Term* a) {
    constexpr int MAX_ELEMENTS = 256;
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (z->state != ZStream::State::Deflate && z->state != ZStream::State::Inflate)
        return p->error(zlib_atom_not_initialized());
    Term t = a[1];
    int n = 0;
    for (; is_list(t) && n < MAX_ELEMENTS; t = tail(t), ++n)
        if (!is_binary(head(t))) return p->badarg();
    if (!is_list(t) && t != NIL) return p->badarg();
    std::string scratch;
    Term rest = a[1];
    for (int i = 0; i < n; ++i, rest = tail(rest)) z->enqueue(binary_bytes(head(rest), scratch));
    p->reductions += n;
    if (rest != NIL) return make_tuple(*p, {atom("continue"), rest});
    return am::ok;
}

Term getStash_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (!z->has_stash) return atom("empty");
    return make_tuple(*p, {am::ok, copy_term(z->stash.term, *p)});
}

Term clearStash_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (!z->has_stash) return p->error(am::error);
    z->clear_stash();
    return am::ok;
}

Term setStash_nif_2(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (z->has_stash) return p->error(am::error);
    z->stash = copy_to_buffer(a[1]);
    z->has_stash = true;
    return am::ok;
}

Term getBufSize_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    return make_integer(*p, z->inflate_chunk_size);
}

Term setBufSize_nif_2(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (!zlib_int_arg(a[1], z->inflate_chunk_size)) return p->badarg();
    return am::ok;
}

Term crc32_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (z->state == ZStream::State::Deflate) return make_integer_u(*p, z->input_crc);
    if (z->state == ZStream::State::Inflate) return make_integer_u(*p, z->output_crc);
    return p->error(zlib_atom_not_initialized());
}

constexpr BifSpec table[] = {
    {"zlib", "open_nif", 0, &open_nif_0},
    {"zlib", "close_nif", 1, &close_nif_1},
    {"zlib", "set_controller_nif", 2, &set_controller_nif_2},
    {"zlib", "enqueue_nif", 2, &enqueue_nif_2},
    {"zlib", "getStash_nif", 1, &getStash_nif_1},
    {"zlib", "clearStash_nif", 1, &clearStash_nif_1},
    {"zlib", "setStash_nif", 2, &setStash_nif_2},
    {"zlib", "getBufSize_nif", 1, &getBufSize_nif_1},
    {"zlib", "setBufSize_nif", 2, &setBufSize_nif_2},
    {"zlib", "crc32_nif", 1, &crc32_nif_1},
};

}  // namespace

std::span<const BifSpec> zlib_stream_bifs() { return table; }

}  // namespace beam

// OTP's zlib natives for a stream's life outside compression itself: open_nif/0, close_nif/1,
// set_controller_nif/2, enqueue_nif/2 (the input queue), the stash, getBufSize/setBufSize
// and crc32_nif/1; and the bounded codec step that deflate_nif/4 and inflate_nif/4 share.
// Semantics and errors follow erts' zlib NIF (erts/emulator/nifs/common/zlib_nif.c), which
// zlib.erl is written against.
#include <algorithm>
#include <climits>
#include <new>

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

// A slice of erl's time budget per full input chunk, as its NIF charges (enif_consume_timeslice).
constexpr int64_t CHUNK_REDUCTIONS = 4000;

struct StepResult {
    int code = Z_OK;
    size_t consumed = 0;
    size_t produced = 0;
};

// Feeds queued input to `codec` without flushing until `input_limit` bytes are consumed or the
// output chunk is full; when the queue is empty and room is left, applies `flush`.
StepResult run_codec(ZStream& z, ZCodec codec, size_t input_limit, uint8_t* out, size_t out_size, int flush) {
    StepResult r;
    z.zs.next_out = out;
    z.zs.avail_out = uInt(out_size);
    size_t offset = z.head_offset;
    for (auto block = z.input.begin(); r.code == Z_OK && block != z.input.end() && r.consumed < input_limit;
         ++block, offset = 0) {
        size_t size = std::min(block->size() - offset, input_limit);
        auto* start = reinterpret_cast<Bytef*>(block->data() + offset);
        z.zs.next_in = start;
        z.zs.avail_in = uInt(size);
        r.code = codec(&z.zs, Z_NO_FLUSH);
        size_t used = size - z.zs.avail_in;
        r.consumed += used;
        if (z.want_input_crc) z.input_crc = crc32(z.input_crc, start, uInt(used));
        if (used < size) break;  // output full, or the codec stopped
    }
    z.dequeue(r.consumed);
    if (r.code == Z_OK && z.input_bytes == 0 && z.zs.avail_out > 0) {
        // Also with Z_NO_FLUSH: output held back by a full buffer last time comes out now.
        z.zs.next_in = nullptr;
        z.zs.avail_in = 0;
        r.code = codec(&z.zs, flush);
    }
    r.produced = out_size - z.zs.avail_out;
    return r;
}

}  // namespace

Term zlib_codec_step(Process* p, ZStream& z, ZCodec codec, const Term* chunk_args) {
    int in_chunk, out_chunk, flush;
    if (!zlib_int_arg(chunk_args[0], in_chunk) || !zlib_int_arg(chunk_args[1], out_chunk) ||
        !zlib_int_arg(chunk_args[2], flush) || in_chunk <= 0 || out_chunk <= 0)
        return p->badarg();
    std::string out;
    try {
        out.resize(size_t(out_chunk));
    } catch (const std::bad_alloc&) {
        return zlib_result(p, Z_MEM_ERROR);  // erl's NIF answers mem_error when it cannot allocate
    }
    StepResult r = run_codec(z, codec, size_t(in_chunk), reinterpret_cast<uint8_t*>(out.data()), out.size(), flush);
    p->reductions += std::max<int64_t>(1, int64_t(r.consumed) * CHUNK_REDUCTIONS / in_chunk);
    if (r.code < 0 && r.code != Z_BUF_ERROR) return zlib_result(p, r.code);
    if (r.code == Z_STREAM_END) z.eos_seen = true;
    if (z.want_output_crc) z.output_crc = crc32(z.output_crc, reinterpret_cast<Bytef*>(out.data()), uInt(r.produced));
    // No progress on input that is still there: malformed data (erl's NIF says the same).
    if (r.consumed == 0 && r.produced == 0 && z.input_bytes != 0) return p->error(atom("data_error"));
    Term output = NIL;
    if (r.produced > 0) {
        Term bin = make_binary(*p, reinterpret_cast<const uint8_t*>(out.data()), r.produced);
        output = make_list_from(*p, &bin, 1);
    }
    if (z.input_bytes == 0 && r.produced < out.size()) return make_tuple(*p, {atom("finished"), output});
    if (r.code != Z_NEED_DICT) return make_tuple(*p, {atom("continue"), output});
    // erl's NIF hands the checksum over as a C int: above 2^31 it comes out negative.
    return make_tuple(*p, {atom("need_dictionary"), make_integer(*p, int32_t(z.zs.adler)), output});
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

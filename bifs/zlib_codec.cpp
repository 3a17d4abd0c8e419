// The bounded step of compression or decompression that deflate_nif/4 and inflate_nif/4 share
// (bifs/zlib_stream.hpp): at most one input chunk consumed, at most one output chunk produced,
// then back to zlib.erl's loop. The result protocol ({continue | finished, Out},
// {need_dictionary, Adler, Out}) is the one zlib.erl's dequeue_next_chunk/2 expects.
#include <algorithm>
#include <new>
#include <string>

#include "bifs/bif_util.hpp"
#include "bifs/zlib_stream.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beam {

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

}  // namespace beam

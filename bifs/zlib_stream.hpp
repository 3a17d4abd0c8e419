// The native state of a zlib stream (OTP's zlib:open/0), shared by the zlib natives:
// bifs/zlib_stream.cpp (open/close, input queue, stash, checksums), bifs/zlib_codec.cpp (one
// bounded deflate or inflate step), bifs/zlib_deflate.cpp and bifs/zlib_inflate.cpp. OTP 25's zlib.erl (erts/preloaded/src/zlib.erl) drives it: it queues
// the input with enqueue_nif/2, then calls deflate_nif/4 or inflate_nif/4 in a loop, each call
// consuming a bounded chunk of input and producing at most one output chunk, so a large input
// never holds a scheduler for long.
//
// A stream belongs to its controlling process; every native checks the caller first (erl
// raises not_on_controlling_process). The mutex makes misuse through a reference that another
// process holds harmless: natives on one stream never run at the same time.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "bifs/bif.hpp"
#include "vm/copy_term.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {

class ZStream final : public MagicKind<ZStream> {
public:
    enum class State { None, Deflate, Inflate, Closed };
    // What inflate does with input that follows the end of a compressed stream
    // (zlib:inflateInit/3's EoSBehavior; these values are what zlib.erl passes).
    enum class EndOfStream { Error = 0, Reset = 1, Cut = 2 };

    explicit ZStream(Term owner) : controller(owner) {}
    ~ZStream() override;
    size_t byte_size() const override { return sizeof(*this); }

    // Ends the deflate or inflate state, drops the stash; the stream is Closed.
    void close();
    // Forgets the queued input and the stash (deflateReset, inflateReset, *End).
    void reset_input();
    void clear_stash();

    std::mutex mutex;
    z_stream zs{};
    State state = State::None;
    EndOfStream eos_behavior = EndOfStream::Cut;
    bool eos_seen = false;
    bool is_raw = false;
    // Checksums of the plain data for the deprecated zlib:crc32/1, kept for raw streams only
    // (a zlib or gzip stream carries its own): the input of deflate, the output of inflate.
    bool want_input_crc = false;
    bool want_output_crc = false;
    uLong input_crc = 0;
    uLong output_crc = 0;
    int inflate_chunk_size = 4000;  // zlib:setBufSize/2 (deprecated inflateChunk), erl's default
    Term controller;                // a local pid

    // Queued input: whole blocks as enqueued, the first one consumed from `head_offset`.
    std::deque<std::string> input;
    size_t head_offset = 0;
    size_t input_bytes = 0;
    void enqueue(std::string_view bytes);
    void dequeue(size_t n);

    // One term zlib.erl keeps across calls (output saved around deflateParams and a
    // need_dictionary exception), copied out of the process as a message is.
    bool has_stash = false;
    MessageBuffer stash;
};

// The stream behind `t` if the calling process controls it. Otherwise raises what erl does
// (badarg for something else, not_on_controlling_process) and returns null.
ZStream* zstream_of(Process* p, Term t, std::unique_lock<std::mutex>& lock);

// zlib's return code as zlib.erl expects it: ok, stream_end and a few atoms are returned,
// stream_error and data_error are raised (NON_VALUE).
Term zlib_result(Process* p, int code);

// One bounded step of deflate or inflate over the queued input (deflate_nif/4, inflate_nif/4):
// {continue, Output}, {finished, Output} or {need_dictionary, Adler, Output}.
using ZCodec = int (*)(z_streamp, int);
Term zlib_codec_step(Process* p, ZStream& z, ZCodec codec, const Term* chunk_args);

Term zlib_atom_not_initialized();
Term zlib_atom_already_initialized();
// An int argument as enif_get_int reads it.
bool zlib_int_arg(Term t, int& out);

}  // namespace beam

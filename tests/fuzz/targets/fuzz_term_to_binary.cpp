// libFuzzer target: term_to_binary's options on decoded terms (vm/ext_term_encode.cpp): the
// first byte picks compression (0-9), minor version (0-2) and `deterministic`; what is
// written must decode to an exactly equal term, compressed or not.
#include <cstdlib>

#include "vm/ext_term.hpp"
#include "vm/heap.hpp"
#include "vm/term_order.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    beam::LiteralArea heap;
    auto r = beam::decode_external(heap, std::span(data + 1, size - 1));
    if (!r.ok()) return 0;
    beam::EncodeOptions opts;
    opts.compressed = data[0] % 10;
    opts.minor_version = (data[0] / 10) % 3;
    opts.deterministic = data[0] >= 128;
    std::vector<uint8_t> bytes;
    if (!beam::encode_external(r.value(), bytes, opts).ok()) std::abort();
    auto back = beam::decode_external(heap, bytes);
    if (!back.ok() || beam::compare_terms_exact(back.value(), r.value()) != 0) std::abort();
    return 0;
}

// libFuzzer target: binary_to_term's decoder (vm/ext_term_decode.cpp) on any bytes, with and
// without `safe` (the first byte chooses), and what it decodes encoded again and decoded back
// equal (term_to_binary's encoder on every term the decoder can make).
#include <cstdlib>

#include "vm/ext_term.hpp"
#include "vm/heap.hpp"
#include "vm/term_order.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    beam::DecodeOptions opts;
    opts.safe = data[0] & 1;
    beam::LiteralArea heap;
    auto r = beam::decode_external(heap, std::span(data + 1, size - 1), nullptr, opts);
    if (!r.ok()) return 0;
    std::vector<uint8_t> bytes;
    if (!beam::encode_external(r.value(), bytes).ok()) std::abort();  // every decoded term encodes
    auto back = beam::decode_external(heap, bytes);
    if (!back.ok() || beam::compare_terms_exact(back.value(), r.value()) != 0) std::abort();
    return 0;
}

// libFuzzer target: the .beam reader (loader/): IFF container, chunks, compact terms, literal
// table (zlib), imports, exports, functions. A malformed file must come back as an Error.
#include "loader/beam_module.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    beam::LiteralArea literals;
    auto r = beam::loader::parse_beam(std::span(data, size), literals);
    (void)r;
    return 0;
}

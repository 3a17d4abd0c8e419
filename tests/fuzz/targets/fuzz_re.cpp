// libFuzzer target: re's pattern compiler (re/: PCRE 8.44's syntax on PCRE2, OTP's options)
// and a match of what compiles. Input: two option bytes, then pattern and subject separated
// by the first NUL byte.
#include <cstring>

#include "re/re_pattern.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 3) return 0;
    static const uint32_t FLAGS[] = {PCRE2_CASELESS, PCRE2_MULTILINE, PCRE2_DOTALL, PCRE2_EXTENDED,
                                     PCRE2_ANCHORED, PCRE2_DOLLAR_ENDONLY, PCRE2_UNGREEDY, PCRE2_UTF};
    beam::re::CompileOptions opts;
    for (int i = 0; i < 8; ++i)
        if (data[0] & (1u << i)) opts.flags |= FLAGS[i];
    static const uint8_t NEWLINES[] = {0, PCRE2_NEWLINE_CR, PCRE2_NEWLINE_LF, PCRE2_NEWLINE_CRLF, PCRE2_NEWLINE_ANY,
                                       PCRE2_NEWLINE_ANYCRLF};
    opts.newline = NEWLINES[data[1] % 6];
    std::string_view rest(reinterpret_cast<const char*>(data + 2), size - 2);
    size_t nul = rest.find('\0');
    std::string_view pattern = rest.substr(0, nul);
    std::string_view subject = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
    beam::re::CompileError err;
    auto p = beam::re::compile(opts, pattern, err);
    if (!p) return 0;
    // The pattern binary round trip that re:compile/2's result goes through.
    beam::re::CompileOptions back_opts;
    std::string back_text;
    if (!beam::re::decode(beam::re::encode(opts, pattern), back_opts, back_text) || back_text != pattern ||
        !(back_opts == opts))
        __builtin_trap();
    pcre2_match_data* md = pcre2_match_data_create_from_pattern(p->code, nullptr);
    pcre2_match_context* mc = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(mc, 100000);  // as re's default match_limit bounds the work
    pcre2_set_depth_limit(mc, 10000);
    pcre2_match(p->code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0, 0, md, mc);
    pcre2_match_context_free(mc);
    pcre2_match_data_free(md);
    return 0;
}

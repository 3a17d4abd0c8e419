// Compiling patterns with PCRE2 as OTP's PCRE 8.44 build would, and the cache of compiled
// patterns that runs share (re/re_pattern.hpp).
#include "re/re_pattern.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace beam::re {

namespace {

// "bvp2": beamvm, PCRE2. Then the option bits (4 bytes, big-endian), newline, bsr, and the text.
constexpr char MAGIC[4] = {'b', 'v', 'p', '2'};
constexpr size_t HEADER = 10;
// PCRE 8.44's limit as OTP builds it (PARENS_NEST_LIMIT); PCRE2's default is 250.
constexpr uint32_t PARENS_NEST_LIMIT = 10000;
// A bound on the cache, cleared whole when reached: patterns are cheap to compile again.
constexpr size_t CACHE_LIMIT = 512;
// The compile options beamvm's encoding may hold: those re's options translate to.
constexpr uint32_t KNOWN_FLAGS = PCRE2_CASELESS | PCRE2_MULTILINE | PCRE2_DOTALL | PCRE2_EXTENDED | PCRE2_ANCHORED |
                                 PCRE2_DOLLAR_ENDONLY | PCRE2_UNGREEDY | PCRE2_UTF | PCRE2_NO_AUTO_CAPTURE |
                                 PCRE2_DUPNAMES | PCRE2_FIRSTLINE | PCRE2_UCP | PCRE2_NEVER_UTF |
                                 PCRE2_NO_START_OPTIMIZE;

pcre2_code* compile_once(std::string_view text, uint32_t flags, pcre2_compile_context* ctx, int& code,
                         PCRE2_SIZE& offset) {
    // PCRE2 refuses a null pattern, which an empty view's data() may be.
    return pcre2_compile(reinterpret_cast<PCRE2_SPTR>(text.empty() ? "" : text.data()), text.size(), flags, &code,
                         &offset, ctx);
}

// \w at the start of a UTF-8 pattern: PCRE2 10.42 builds its start-of-match bitmap for code
// points 128-255 from the space class rather than the word class, so with Latin-1 tables it
// would skip subjects starting with é. Such patterns go without start-of-match optimisation.
bool needs_no_start_optimize(std::string_view text) {
    for (size_t i = 0; i + 1 < text.size(); ++i)
        if (text[i] == '\\' && (text[i + 1] == 'w' || text[i + 1] == 'W')) return true;
    return false;
}

std::shared_ptr<const Pattern> build(const CompileOptions& opts, std::string_view text, CompileError& err) {
    if (pcre1_refuses(text, err)) return nullptr;
    pcre2_compile_context* ctx = pcre2_compile_context_create(nullptr);
    if (!ctx) {
        err = {"failed to get memory", 0};
        return nullptr;
    }
    pcre2_set_character_tables(ctx, latin1_tables());
    pcre2_set_newline(ctx, opts.newline ? opts.newline : PCRE2_NEWLINE_LF);
    pcre2_set_bsr(ctx, opts.bsr ? opts.bsr : PCRE2_BSR_UNICODE);
    pcre2_set_parens_nest_limit(ctx, PARENS_NEST_LIMIT);
    // PCRE 8.44 allows \K in lookarounds.
    pcre2_set_compile_extra_options(ctx, PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK);
    // PCRE 8.44 reads unknown escapes as the character: change them and retry. origin[i] is
    // where the character at i of the compiled text came from in the caller's.
    std::string work(text);
    // PCRE 8.44 reads [:upper:] and [:lower:] as [:alpha:] when caseless; PCRE2 in UCP mode
    // makes them \p{Lu} and \p{Ll}, which caseless matching leaves alone. (Same length: the
    // offsets stay.) Caseless set inside the pattern with (?i) is not seen here.
    if ((opts.flags & PCRE2_CASELESS) && (opts.flags & PCRE2_UCP || text.find("(*UCP)") != std::string::npos))
        for (std::string_view cls : {"[:upper:]", "[:lower:]", "[:^upper:]", "[:^lower:]"})
            for (size_t at = work.find(cls); at != std::string::npos; at = work.find(cls, at + 1))
                work.replace(at + cls.size() - 7, 5, "alpha");
    std::vector<size_t> origin(text.size() + 1);
    for (size_t i = 0; i < origin.size(); ++i) origin[i] = i;
    int code = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* re;
    for (;;) {
        re = compile_once(work, opts.flags, ctx, code, offset);
        if (re) break;
        bool insert;
        size_t at = literal_fix_at(work, code, offset, insert);
        if (at == std::string::npos || work.size() > 2 * text.size() + 16) break;
        if (insert) {
            work.insert(at, 1, '\\');
            origin.insert(origin.begin() + long(at), origin[at]);
        } else {
            work.erase(at, 1);
            origin.erase(origin.begin() + long(at));
        }
    }
    if (re) {
        uint32_t all = 0;
        pcre2_pattern_info(re, PCRE2_INFO_ALLOPTIONS, &all);
        // With firstline, PCRE2 10.42's start-of-line optimisation skips a match at an empty
        // first line ((?=^\n) on "\nb"), which PCRE 8.44 finds.
        bool firstline = all & PCRE2_FIRSTLINE;
        bool utf_word = (all & PCRE2_UTF) && !(all & PCRE2_UCP) && needs_no_start_optimize(work);
        if (!(all & PCRE2_NO_START_OPTIMIZE) && (firstline || utf_word)) {
            pcre2_code_free(re);
            re = compile_once(work, opts.flags | PCRE2_NO_START_OPTIMIZE, ctx, code, offset);
        }
    }
    pcre2_compile_context_free(ctx);
    if (!re) {
        err = pcre1_error(work, code, offset);
        err.offset = origin[std::min(err.offset, origin.size() - 1)];
        return nullptr;
    }
    auto p = std::make_shared<Pattern>();
    p->code = re;
    uint32_t captures = 0, all = 0, newline = 0, count = 0, entry = 0;
    PCRE2_SPTR table = nullptr;
    pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &captures);
    pcre2_pattern_info(re, PCRE2_INFO_ALLOPTIONS, &all);
    pcre2_pattern_info(re, PCRE2_INFO_NEWLINE, &newline);
    pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &entry);
    pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
    p->captures = int(captures);
    p->utf = all & PCRE2_UTF;
    p->dupnames = all & PCRE2_DUPNAMES;
    p->crlf = newline == PCRE2_NEWLINE_CRLF || newline == PCRE2_NEWLINE_ANYCRLF || newline == PCRE2_NEWLINE_ANY;
    for (uint32_t i = 0; i < count; ++i, table += entry)
        p->names.emplace_back(reinterpret_cast<const char*>(table + 2), (int(table[0]) << 8) | table[1]);
    return p;
}

}  // namespace

Pattern::~Pattern() { pcre2_code_free(code); }

std::string encode(const CompileOptions& opts, std::string_view text) {
    std::string b(MAGIC, 4);
    for (int s = 24; s >= 0; s -= 8) b.push_back(char(opts.flags >> s));
    b.push_back(char(opts.newline));
    b.push_back(char(opts.bsr));
    b.append(text);
    return b;
}

bool decode(std::string_view bin, CompileOptions& opts, std::string& text) {
    if (bin.size() < HEADER || std::memcmp(bin.data(), MAGIC, 4) != 0) return decode_erts(bin, opts, text);
    opts.flags = 0;
    for (int i = 4; i < 8; ++i) opts.flags = (opts.flags << 8) | uint8_t(bin[size_t(i)]);
    opts.newline = uint8_t(bin[8]);
    opts.bsr = uint8_t(bin[9]);
    if ((opts.flags & ~KNOWN_FLAGS) || opts.newline > PCRE2_NEWLINE_NUL || opts.bsr > PCRE2_BSR_ANYCRLF) return false;
    text.assign(bin.substr(HEADER));
    return true;
}

std::shared_ptr<const Pattern> compile(const CompileOptions& opts, std::string_view text, CompileError& err) {
    static std::mutex mutex;
    static std::unordered_map<std::string, std::shared_ptr<const Pattern>> cache;
    std::string key = encode(opts, text);
    {
        std::lock_guard lock(mutex);
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
    }
    auto p = build(opts, text, err);
    if (!p) return nullptr;
    std::lock_guard lock(mutex);
    if (cache.size() >= CACHE_LIMIT) cache.clear();
    cache.emplace(std::move(key), p);
    return p;
}

}  // namespace beam::re

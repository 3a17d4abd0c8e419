// UTF-8 text as the external term format, distribution headers and .beam atom tables carry atom names.
#pragma once

#include <cstddef>
#include <cstdint>

namespace beam {

// Counts the characters of UTF-8 text; false for anything erts_atom_put refuses as UTF-8
// (overlong forms, surrogates, code points past U+10FFFF, truncated sequences).
inline bool utf8_chars(const uint8_t* s, size_t n, size_t& chars) {
    chars = 0;
    for (size_t i = 0; i < n; ++chars) {
        uint8_t b = s[i];
        size_t len;
        uint32_t cp;
        if (b < 0x80) { len = 1; cp = b; }
        else if ((b & 0xE0) == 0xC0) { len = 2; cp = b & 0x1F; }
        else if ((b & 0xF0) == 0xE0) { len = 3; cp = b & 0x0F; }
        else if ((b & 0xF8) == 0xF0) { len = 4; cp = b & 0x07; }
        else return false;
        if (i + len > n) return false;
        for (size_t k = 1; k < len; ++k) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        static constexpr uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += len;
    }
    return true;
}

}  // namespace beam

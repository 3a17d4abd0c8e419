#include "nif/nif_text.hpp"

#include "vm/atom_table.hpp"

namespace beam::nif {

std::string latin1_to_utf8(const char* s, size_t n) {
    std::string out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            out += char(c);
        } else {
            out += char(0xC0 | (c >> 6));
            out += char(0x80 | (c & 0x3F));
        }
    }
    return out;
}

std::optional<Term> existing_latin1_atom(const char* s, size_t n) {
    return AtomTable::instance().find(latin1_to_utf8(s, n));
}

std::optional<std::string> atom_latin1(Term atom) {
    std::string_view u = atom_name(atom);
    std::string out;
    out.reserve(u.size());
    for (size_t i = 0; i < u.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(u[i]);
        if (c < 0x80) {
            out += char(c);
        } else if ((c & 0xE0) == 0xC0 && c <= 0xC3 && i + 1 < u.size()) {
            out += char(((c & 0x1F) << 6) | (static_cast<unsigned char>(u[i + 1]) & 0x3F));
            ++i;
        } else {
            return std::nullopt;
        }
    }
    return out;
}

}  // namespace beam::nif

// Atom conversions (OTP: atom.c, erl_unicode.c). Atom text is stored as UTF-8; the limit is
// 255 characters (not bytes), beyond which creating an atom is system_limit, while looking
// one up (the *_existing_* BIFs) is simply badarg.
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/sandbox_checks.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

enum class Encoding { Latin1, Utf8, Invalid };

Encoding encoding_arg(Term t) {
    if (t == am::latin1) return Encoding::Latin1;
    if (t == am::utf8 || t == am::unicode) return Encoding::Utf8;
    return Encoding::Invalid;
}

size_t utf8_char_count(std::string_view s) {
    size_t n = 0;
    for (char c : s) n += (uint8_t(c) & 0xC0) != 0x80;
    return n;
}

// Creates (or finds, if `existing`) the atom for UTF-8 text already known to be valid.
Term atom_from_utf8(Process* p, std::string_view text, bool existing) {
    if (existing) {
        auto found = AtomTable::instance().find(text);
        return found ? *found : p->badarg();
    }
    if (utf8_char_count(text) > MAX_ATOM_CHARS) return p->error(am::system_limit);
    if (!AtomTable::instance().find(text) && !sandbox_may_create_atom(p)) [[unlikely]]
        return p->error(make_tuple(*p, {atom("sandbox_limit"), atom("atoms")}));  // as sandbox_limit_reached
    auto made = AtomTable::instance().intern(text);
    return made ? *made : p->error(am::system_limit);
}

Term binary_to_atom(Process* p, Term bin, Term enc_term, bool existing) {
    Encoding enc = encoding_arg(enc_term);
    if (!is_binary(bin) || enc == Encoding::Invalid) return p->badarg();
    BitView v = bit_view(bin);
    std::string bytes;
    if (v.byte_aligned()) {
        bytes.assign(reinterpret_cast<const char*>(v.bytes()), v.byte_size());
    } else {
        bytes.resize(v.byte_size());
        copy_bits(v.base, v.bit_offset, reinterpret_cast<uint8_t*>(bytes.data()), 0, v.bit_size);
    }
    if (enc == Encoding::Latin1) {
        std::string utf8;
        for (char c : bytes) append_utf8(utf8, uint8_t(c));
        return atom_from_utf8(p, utf8, existing);
    }
    // OTP (erts_atom_put_index) refuses more than 4 bytes per character before decoding, and
    // validates at most MAX_ATOM_CHARS characters: text with that many valid ones before it
    // goes wrong is system_limit, not badarg. Looking up an existing atom is only ever badarg.
    if (!existing && bytes.size() > MAX_ATOM_CHARS * 4) return p->error(am::system_limit);
    std::vector<uint32_t> cps;
    if (!decode_utf8(bytes, cps))
        return !existing && cps.size() >= MAX_ATOM_CHARS ? p->error(am::system_limit) : p->badarg();
    return atom_from_utf8(p, bytes, existing);
}

Term list_to_atom(Process* p, Term list, bool existing) {
    auto text = char_list_to_utf8(list);
    if (!text) return p->badarg();
    return atom_from_utf8(p, *text, existing);
}

Term atom_to_list_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    std::string_view name = atom_name(a[0]);
    std::vector<uint32_t> cps;
    decode_utf8(name, cps);
    Term* hp = cps.empty() ? nullptr : p->alloc(2 * cps.size());
    Term result = NIL;
    for (size_t i = cps.size(); i-- > 0;) result = cons_at(hp + 2 * i, make_small(cps[i]), result);
    return result;
}

Term atom_to_binary(Process* p, Term atom_term, Term enc_term) {
    Encoding enc = encoding_arg(enc_term);
    if (!is_atom(atom_term) || enc == Encoding::Invalid) return p->badarg();
    std::string_view name = atom_name(atom_term);
    if (enc == Encoding::Utf8) return make_binary(*p, name);
    std::vector<uint32_t> cps;
    decode_utf8(name, cps);
    std::string latin1;
    for (uint32_t c : cps) {
        if (c > 255) return p->badarg();
        latin1 += char(c);
    }
    return make_binary(*p, latin1);
}

Term atom_to_binary_1(Process* p, const Term* a) { return atom_to_binary(p, a[0], am::utf8); }
Term atom_to_binary_2(Process* p, const Term* a) { return atom_to_binary(p, a[0], a[1]); }
Term binary_to_atom_1(Process* p, const Term* a) { return binary_to_atom(p, a[0], am::utf8, false); }
Term binary_to_atom_2(Process* p, const Term* a) { return binary_to_atom(p, a[0], a[1], false); }
Term binary_to_existing_atom_1(Process* p, const Term* a) { return binary_to_atom(p, a[0], am::utf8, true); }
Term binary_to_existing_atom_2(Process* p, const Term* a) { return binary_to_atom(p, a[0], a[1], true); }
Term list_to_atom_1(Process* p, const Term* a) { return list_to_atom(p, a[0], false); }
Term list_to_existing_atom_1(Process* p, const Term* a) { return list_to_atom(p, a[0], true); }

constexpr BifSpec table[] = {
    {"erlang", "atom_to_list", 1, &atom_to_list_1},
    {"erlang", "atom_to_binary", 1, &atom_to_binary_1},
    {"erlang", "atom_to_binary", 2, &atom_to_binary_2},
    {"erlang", "binary_to_atom", 1, &binary_to_atom_1},
    {"erlang", "binary_to_atom", 2, &binary_to_atom_2},
    {"erlang", "binary_to_existing_atom", 1, &binary_to_existing_atom_1},
    {"erlang", "binary_to_existing_atom", 2, &binary_to_existing_atom_2},
    {"erlang", "list_to_atom", 1, &list_to_atom_1},
    {"erlang", "list_to_existing_atom", 1, &list_to_existing_atom_1},
};

}  // namespace

std::span<const BifSpec> atoms_bifs() { return table; }

}  // namespace beam

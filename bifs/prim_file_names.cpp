// File name encoding for prim_file: internal_name2native/1, internal_native2name/1,
// internal_normalize_utf8/1 and is_translatable/1 (BIFs in erts, erl_unicode.c). The native
// name encoding is UTF-8 (file:native_name_encoding/0) as erl's on Linux with a UTF-8 locale,
// or latin1 under +fnl or a non-UTF-8 locale (tools/emu_flags.cpp). UTF-8: a name given as a
// list of characters is encoded in UTF-8, a binary name is used byte for byte; either way a
// NUL terminates it, so a NUL inside is badarg. A raw name that is not valid UTF-8 decodes to
// {error, warning} (erl's default +fnuw mode, under which list_dir/1 skips such names after a
// warning; +fnui and +fnue give ignore and error). Latin1: each character is one byte (one
// above 255 is badarg) and every raw name decodes byte for byte.
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/binary.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// A deep list of code points (0 excluded) appended to `out` as UTF-8, or as latin1 bytes.
bool flatten_chars(Term t, std::string& out, bool utf8, int depth = 0) {
    if (depth > 10000) return false;
    for (; is_list(t); t = tail(t)) {
        Term h = head(t);
        if (is_small(h)) {
            int64_t c = small_value(h);
            if (c <= 0 || c > (utf8 ? 0x10FFFF : 0xFF)) return false;
            if (utf8) append_utf8(out, uint32_t(c));
            else out.push_back(char(c));
        } else if (is_list(h) || h == NIL) {
            if (!flatten_chars(h, out, utf8, depth + 1)) return false;
        } else {
            return false;
        }
    }
    return t == NIL;
}

bool binary_bytes_of(Term t, std::string& out) {
    if (!is_binary(t)) return false;
    BitView v = bit_view(t);
    out.assign(v.byte_size(), '\0');
    copy_bits(v.base, v.bit_offset, reinterpret_cast<uint8_t*>(out.data()), 0, v.bit_size);
    return true;
}

Term code_point_list(Process* p, const std::vector<uint32_t>& cps) {
    Term list = NIL;
    for (size_t i = cps.size(); i-- > 0;) {
        Term* cell = p->alloc(2);
        cell[0] = make_small(int64_t(cps[i]));
        cell[1] = list;
        list = make_list(cell);
    }
    return list;
}

Term internal_name2native_1(Process* p, const Term* a) {
    std::string out;
    if (is_binary(a[0])) {
        binary_bytes_of(a[0], out);
        if (out.find('\0') != std::string::npos) return p->badarg();
    } else if (!flatten_chars(a[0], out, p->vm->emu_options.filename_utf8)) {
        return p->badarg();
    }
    out.push_back('\0');
    return make_binary(*p, out);
}

Term internal_native2name_1(Process* p, const Term* a) {
    std::string bytes;
    if (!binary_bytes_of(a[0], bytes)) return p->badarg();
    std::vector<uint32_t> cps;
    if (!p->vm->emu_options.filename_utf8) {
        cps.assign(reinterpret_cast<const uint8_t*>(bytes.data()),
                   reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size());
    } else if (!decode_utf8(bytes, cps)) {
        char w = p->vm->emu_options.filename_warning;
        return make_tuple(*p, {am::error, atom(w == 'i' ? "ignore" : w == 'e' ? "error" : "warning")});
    }
    return code_point_list(p, cps);
}

// Decomposed-to-composed normalisation matters on macOS only; elsewhere it decodes.
Term internal_normalize_utf8_1(Process* p, const Term* a) {
    std::string bytes;
    std::vector<uint32_t> cps;
    if (!binary_bytes_of(a[0], bytes) || !decode_utf8(bytes, cps)) return p->badarg();
    return code_point_list(p, cps);
}

Term is_translatable_1(Process* p, const Term* a) {
    std::string bytes;
    if (!binary_bytes_of(a[0], bytes)) return p->badarg();
    std::vector<uint32_t> cps;
    return make_bool(!p->vm->emu_options.filename_utf8 || decode_utf8(bytes, cps));
}

constexpr BifSpec table[] = {
    {"prim_file", "internal_name2native", 1, &internal_name2native_1},
    {"prim_file", "internal_native2name", 1, &internal_native2name_1},
    {"prim_file", "internal_normalize_utf8", 1, &internal_normalize_utf8_1},
    {"prim_file", "is_translatable", 1, &is_translatable_1},
};

}  // namespace

std::span<const BifSpec> prim_file_names_bifs() { return table; }

}  // namespace beam

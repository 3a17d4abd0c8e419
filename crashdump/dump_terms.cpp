#include "crashdump/dump_terms.hpp"

#include <cinttypes>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/ext_term.hpp"
#include "vm/interp.hpp"
#include "vm/module.hpp"
#include "vm/term_print.hpp"
#include "vm/vm.hpp"

namespace beam::crashdump {

namespace {

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%" PRIX64, v);
    return buf;
}

std::string addr(const void* p) { return hex(reinterpret_cast<uintptr_t>(p)); }

// A term in the external format (E<size>:<base64>). A term the encoder refuses (a match
// context left in a stack slot) is written as the atom '#beamvm_unencodable_term'.
std::string external_text(Term t) {
    std::vector<uint8_t> bytes;
    if (!encode_external(t, bytes)) {
        bytes.clear();
        (void)encode_external(atom("#beamvm_unencodable_term"), bytes);
    }
    return "E" + hex(bytes.size()) + ":" + base64(bytes.data(), bytes.size());
}

}  // namespace

std::string element_text(Term t) {
    if (is_list(t)) return "H" + addr(list_ptr(t));
    if (is_boxed(t)) return "H" + addr(boxed_ptr(t));
    if (is_atom(t)) {
        std::string_view name = atom_name(t);
        return "A" + hex(name.size()) + ":" + std::string(name);
    }
    if (is_small(t)) return "I" + std::to_string(small_value(t));
    if (is_local_pid(t)) return "P" + display_string(t);
    if (is_local_port(t)) return "p<0." + std::to_string(local_port_number(t)) + ">";
    if (is_nil(t)) return "N";
    return "";  // no other immediate is a term (erts writes nothing for them either)
}

std::string code_location(VM& vm, const void* pc) {
    const Word* w = static_cast<const Word*>(pc);
    if (ModuleCode* mc = vm.code_at(w))
        if (const FunctionInfo* fi = mc->function_at(w)) {
            char off[32];
            std::snprintf(off, sizeof off, " + %td", (w - fi->start) * ptrdiff_t(sizeof(Word)));
            return std::string(atom_name(mc->name)) + ":" + std::string(atom_name(fi->name)) + "/" +
                   std::to_string(fi->arity) + off;
        }
    // The return address under every process's first frame (vm/spawn.cpp), as erts names its
    // beam_normal_exit. A return address always points at an instruction word.
    if (w && *w == handler_word(Op::normal_exit)) return "<terminate process normally>";
    return "unknown function";
}

void HeapWriter::write() {
    while (!pending_.empty() && !out_.cut()) {
        Term t = pending_.back();
        pending_.pop_back();
        Term* p = is_list(t) ? list_ptr(t) : boxed_ptr(t);
        if (!seen_.insert(p).second) continue;
        if (seen_.size() > MAX_OBJECTS) return;
        if (is_list(t)) {
            out_.write(addr(p) + ":l" + element_text(p[0]) + "|" + element_text(p[1]) + "\n");
            add_root(p[1]);
            add_root(p[0]);
            continue;
        }
        write_boxed(t, p);
    }
}

void HeapWriter::write_boxed(Term t, Term* p) {
    if (is_tuple(t)) {
        Word n = tuple_arity(t);
        std::string line = addr(p) + ":t" + hex(n) + ":";
        for (Word i = 0; i < n; ++i) {
            if (i) line += ',';
            line += element_text(p[1 + i]);
        }
        out_.write(line + "\n");
        for (Word i = n; i > 0; --i) add_root(p[i]);
        return;
    }
    if (is_binary_obj(t)) {
        BitView v = bit_view(t);
        if (v.whole_bytes() && v.byte_aligned()) {
            out_.write(addr(p) + ":Yh" + hex(v.byte_size()) + ":" + base64(v.bytes(), v.byte_size()) + "\n");
            return;
        }
    }
    out_.write(addr(p) + ":" + external_text(t) + "\n");
}

}  // namespace beam::crashdump

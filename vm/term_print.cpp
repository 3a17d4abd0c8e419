// erlang:display/1's text form, following the rules of OTP's erts printer (checked against
// OTP 25): atoms are quoted unless they are a Latin-1 lowercase letter followed by Latin-1
// alphanumerics or '_'; flat lists of Latin-1 printable characters print as strings with raw
// bytes; binaries print as a string only when every byte is printable ASCII.
#include "vm/term_print.hpp"

#include <cstdio>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/ext_ids.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

namespace beam {

namespace {

bool is_lower_l1(int c) { return (c >= 'a' && c <= 'z') || (c >= 223 && c <= 255 && c != 247); }
bool is_upper_l1(int c) { return (c >= 'A' && c <= 'Z') || (c >= 192 && c <= 222 && c != 215); }
bool is_alnum_l1(int c) { return (c >= '0' && c <= '9') || is_lower_l1(c) || is_upper_l1(c); }
bool is_space(int c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
bool is_cntrl_l1(int c) { return c < ' ' || c == 127 || (c >= 128 && c < 160); }

// The code point starting at s[i] if it is Latin-1; continuation bytes count as a letter and
// code points above 255 as 0 (never allowed unquoted), as the erts printer does.
int latin1_at(std::string_view s, size_t i) {
    unsigned c = uint8_t(s[i]);
    if (c < 0x80) return int(c);
    if ((c & 0xE0) == 0xC0) {
        unsigned c2 = i + 1 < s.size() ? uint8_t(s[i + 1]) : 0x80;
        return int(((c & 0x1F) << 6) | (c2 & 0x3F));
    }
    if ((c & 0xC0) == 0x80) return 'a';
    return 0;
}

bool atom_needs_quotes(std::string_view s) {
    if (s.empty()) return true;
    if (!is_lower_l1(latin1_at(s, 0))) return true;
    for (size_t i = 1; i < s.size(); ++i) {
        int c = latin1_at(s, i);
        if (!is_alnum_l1(c) && c != '_') return true;
    }
    return false;
}

void append_octal_escape(std::string& out, unsigned c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\%03o", c);
    out += buf;
}

// The characters of an atom between its quotes. Display and source syntax escape the same
// way except that source syntax also names ESC (\e) and DEL (\d).
void append_atom_chars(std::string& out, std::string_view s, bool source) {
    for (size_t i = 0; i < s.size(); ++i) {
        unsigned c = uint8_t(s[i]);
        switch (c) {
        case '\'': out += "\\'"; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\f': out += "\\f"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        case '\b': out += "\\b"; break;
        case '\v': out += "\\v"; break;
        default:
            if (source && c == 27) {
                out += "\\e";
            } else if (source && c == 127) {
                out += "\\d";
            } else if (c < ' ') {
                append_octal_escape(out, c);
            } else if (c == 0xC2 && i + 1 < s.size() && uint8_t(s[i + 1]) < 0xA0) {
                append_octal_escape(out, uint8_t(s[++i]));  // C1 control (128..159)
            } else {
                out.push_back(char(c));  // ASCII or one byte of a UTF-8 sequence
            }
        }
    }
}

void append_atom(std::string& out, Term atom) {
    std::string_view s = atom_name(atom);
    bool quote = atom_needs_quotes(s);
    if (quote) out.push_back('\'');
    append_atom_chars(out, s, false);
    if (quote) out.push_back('\'');
}

bool is_printable_string(Term t) {
    if (!is_list(t)) return false;
    for (; is_list(t); t = tail(t)) {
        Term h = head(t);
        if (!is_small(h)) return false;
        SWord c = small_value(h);
        if (c < 0 || c > 255) return false;
        if (is_cntrl_l1(int(c)) && !is_space(int(c))) return false;
    }
    return is_nil(t);
}

void append_u(std::string& out, uint64_t v) { out += std::to_string(v); }

// erts' element budget for a term printed with "%.NT" (erl_printf_term.c's dcount): one per
// term, one per character of a printable list and per byte of a binary, an atom's length in
// bytes; printing stops where it runs out. Null: no limit (erlang:display/1).
struct Budget {
    long left;
    bool stopped = false;
    // Spends one; false (printing stops) when none was left.
    bool take() {
        if (left-- > 0) return true;
        stopped = true;
        return false;
    }
};
bool take(Budget* b) { return !b || b->take(); }
void spend(Budget* b, size_t n) {
    if (b) b->left -= long(n);
}

void append_binary(std::string& out, Term t, Budget* budget) {
    BitView v = bit_view(t);
    size_t bytes = v.byte_size();
    unsigned tail_bits = v.bit_size & 7;
    auto byte = [&](size_t i) {
        size_t pos = v.bit_offset + i * 8;
        const uint8_t* p = v.base + (pos >> 3);
        unsigned s = pos & 7;
        return s ? uint8_t((p[0] << s) | (p[1] >> (8 - s))) : p[0];
    };
    bool printable = tail_bits == 0 && bytes > 0;
    for (size_t i = 0; printable && i < bytes; ++i) {
        uint8_t c = byte(i);
        printable = c >= ' ' && c < 127;
    }
    if (printable) {
        out += "<<\"";
        for (size_t i = 0; i < bytes; ++i) {
            char c = char(byte(i));
            if (c == '"') out.push_back('\\');
            out.push_back(c);
            if (!take(budget)) return;
        }
        out += "\">>";
        return;
    }
    out += "<<";
    for (size_t i = 0; i < bytes; ++i) {
        if (i) out.push_back(',');
        append_u(out, byte(i));
        if (!take(budget)) return;
    }
    if (tail_bits) {
        unsigned val = 0;
        size_t pos = v.bit_offset + bytes * 8;
        for (unsigned i = 0; i < tail_bits; ++i, ++pos) val = (val << 1) | ((v.base[pos >> 3] >> (7 - (pos & 7))) & 1);
        if (bytes) out.push_back(',');
        append_u(out, val);
        out.push_back(':');
        append_u(out, tail_bits);
    }
    out += ">>";
}

// Printing keeps what it still has to print on a stack of its own (terms, and the
// punctuation between them), so terms nested to any depth print without growing the C stack.
struct Task {
    Term term;
    const char* text;  // punctuation to emit instead of a term, when not null
};
using Tasks = std::vector<Task>;

void push_text(Tasks& todo, const char* text) { todo.push_back({NIL, text}); }

// Elements in order with `sep` between them (pushed last first).
void push_seq(Tasks& todo, const Term* elems, size_t n, const char* sep) {
    for (size_t i = n; i-- > 0;) {
        todo.push_back({elems[i], nullptr});
        if (i) push_text(todo, sep);
    }
}

void print_string_list(std::string& out, Term t, Budget* budget) {
    out.push_back('"');
    for (; is_list(t); t = tail(t)) {
        if (!take(budget)) return;
        char c = char(small_value(head(t)));
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        if (c == '"') out.push_back('\\');
        out.push_back(c);
    }
    out.push_back('"');
}

void print_list(std::string& out, Term t, Tasks& todo, Budget* budget) {
    if (is_printable_string(t)) return print_string_list(out, t, budget);
    out.push_back('[');
    push_text(todo, "]");
    std::vector<Task> items;  // in order; pushed reversed below
    for (bool first = true;; first = false) {
        if (!first) items.push_back({NIL, ","});
        items.push_back({head(t), nullptr});
        t = tail(t);
        if (is_nil(t)) break;
        if (!is_list(t)) {
            items.push_back({NIL, "|"});
            items.push_back({t, nullptr});
            break;
        }
    }
    todo.insert(todo.end(), items.rbegin(), items.rend());
}

// The N of <N.Id.Serial>, #Port<N.Id>, #Ref<N...>: erts prints its dist entry's channel
// number, 0 for this node's name (any creation) and the node name's atom index for any other
// (erl_node_container_utils.h, dist_entry_channel_no). beamvm numbers atoms in another order
// than erl, so for other nodes the number is the same rule with other values.
uint64_t node_number(Term node) { return node == thread_node_identity().name() ? 0 : atom_index(node); }

void print_boxed(std::string& out, Term t, Tasks& todo, Budget* budget) {
    const Term* p = boxed_ptr(t);
    switch (header_sub(p[0])) {
    case Sub::Tuple:
        out.push_back('{');
        push_text(todo, "}");
        push_seq(todo, tuple_elems(t), tuple_arity(t), ",");
        return;
    case Sub::PosBig:
    case Sub::NegBig: out += int_to_string(t); return;
    case Sub::Float: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%e", float_value(t));
        out += buf;
        return;
    }
    case Sub::ExtPid:
        out.push_back('<');
        append_u(out, node_number(ext_id_node(t)));
        out.push_back('.');
        append_u(out, ext_pid_id(t));
        out.push_back('.');
        append_u(out, ext_pid_serial(t));
        out.push_back('>');
        return;
    case Sub::ExtPort:
        out += "#Port<";
        append_u(out, node_number(ext_id_node(t)));
        out.push_back('.');
        append_u(out, ext_port_number(t));
        out.push_back('>');
        return;
    case Sub::ExtRef:  // every id word as sent, the most significant first
        out += "#Ref<";
        append_u(out, node_number(ext_id_node(t)));
        for (size_t i = ext_ref_len(t); i-- > 0;) {
            out.push_back('.');
            append_u(out, ext_ref_id(t, i));
        }
        out.push_back('>');
        return;
    case Sub::Ref:
        out += "#Ref<0.";
        append_u(out, p[3].raw);
        out.push_back('.');
        append_u(out, p[2].raw);
        out.push_back('.');
        append_u(out, p[1].raw);
        out.push_back('>');
        return;
    case Sub::Fun: {
        const FunEntry* fe = fun_entry(t);
        out += "#Fun<";
        out += atom_name(fe->module);  // the erts printer writes the module name unquoted
        out.push_back('.');
        append_u(out, fe->index);
        out.push_back('.');
        append_u(out, fe->old_uniq);
        out.push_back('>');
        return;
    }
    case Sub::Export: {
        const Export* ep = export_of(t);
        out += "fun ";
        spend(budget, atom_name(ep->module).size() + atom_name(ep->function).size());
        append_atom(out, ep->module);
        out.push_back(':');
        append_atom(out, ep->function);
        out.push_back('/');
        append_u(out, ep->arity);
        return;
    }
    case Sub::HashMap: {
        // erts prints a trie as its structure: #<bitmap>{...} for the head, <bitmap>{...} for
        // inner nodes (bitmaps in lower-case hex), leaves as the cons cells [K|V] they are.
        out += hamt_is_head(t) ? "#<" : "<";
        char hex[16];
        std::snprintf(hex, sizeof hex, "%x", unsigned(hamt_bitmap(t)));
        out += hex;
        out += ">{";
        push_text(todo, "}");
        push_seq(todo, hamt_children(t), hamt_child_count(t), ",");
        return;
    }
    case Sub::Map: {
        out += "#{";
        push_text(todo, "}");
        const Term* ks = flat_map_keys(t);
        const Term* vs = flat_map_values(t);
        for (size_t i = map_size(t); i-- > 0;) {
            todo.push_back({vs[i], nullptr});
            push_text(todo, "=>");
            todo.push_back({ks[i], nullptr});
            if (i) push_text(todo, ",");
        }
        return;
    }
    case Sub::HeapBin:
    case Sub::RefcBin:
    case Sub::SubBin: append_binary(out, t, budget); return;
    case Sub::MatchState: out += "#MatchState"; return;
    default: out += "<unknown>"; return;
    }
}

void print_one(std::string& out, Term t, Tasks& todo, Budget* budget) {
    if (is_small(t)) {
        out += std::to_string(small_value(t));
    } else if (is_atom(t)) {
        spend(budget, atom_name(t).size());
        append_atom(out, t);
        if (budget && budget->left <= 0) budget->stopped = true;  // erts stops after the atom
    } else if (is_nil(t)) {
        out += "[]";
    } else if (is_list(t)) {
        print_list(out, t, todo, budget);
    } else if (is_local_pid(t)) {
        out += "<0.";
        append_u(out, pid_id(local_pid_number(t)));
        out.push_back('.');
        append_u(out, pid_serial(local_pid_number(t)));
        out.push_back('>');
    } else if (is_local_port(t)) {
        out += "#Port<0.";
        append_u(out, local_port_number(t));
        out.push_back('>');
    } else if (is_boxed(t)) {
        print_boxed(out, t, todo, budget);
    } else if (is_non_value(t)) {
        out += "<TNV>";
    } else {
        out += "<unknown>";
    }
}

void append_term(std::string& out, Term root, Budget* budget) {
    Tasks todo{{root, nullptr}};
    while (!todo.empty() && !(budget && budget->stopped)) {
        Task task = todo.back();
        todo.pop_back();
        if (task.text) out += task.text;
        else if (take(budget)) print_one(out, task.term, todo, budget);
    }
}

}  // namespace

std::string display_string(Term t) {
    std::string out;
    append_term(out, t, nullptr);
    return out;
}

std::string display_string(Term t, long* budget) {
    Budget b{*budget};
    std::string out;
    append_term(out, t, &b);
    *budget = b.left;
    return out;
}

// Source syntax (io_lib:write_atom/1): unlike display/1, '@' is a name character, reserved
// words are quoted, and control characters use Erlang escapes.
std::string atom_text_quoted(Term atom) {
    static constexpr std::string_view reserved[] = {
        "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case", "catch", "cond",
        "div", "end", "fun", "if", "let", "not", "of", "or", "orelse", "receive", "rem", "try", "when", "xor"};
    std::string_view s = atom_name(atom);
    bool quote = s.empty() || !is_lower_l1(latin1_at(s, 0));
    for (size_t i = 1; !quote && i < s.size(); ++i) {
        int c = latin1_at(s, i);
        quote = !is_alnum_l1(c) && c != '_' && c != '@';
    }
    for (std::string_view r : reserved) quote = quote || s == r;
    std::string out;
    if (quote) out.push_back('\'');
    append_atom_chars(out, s, true);
    if (quote) out.push_back('\'');
    return out;
}

}  // namespace beam

// Identifiers to and from their text: erlang:list_to_pid/1, ref_to_list/1, list_to_ref/1,
// port_to_list/1, list_to_port/1, fun_to_list/1, fun_info_mfa/1 (erts' bif.c and
// erl_bif_info.c). pid_to_list/1 is in bifs/misc.cpp.
//
// The text forms are display/1's (vm/term_print.cpp), which prints them as erts does. Parsing
// follows erts: the argument must be a proper list of bytes no longer than the longest valid
// text, numbers are plain decimal digits (leading zeros allowed), node 0 is this node and any
// other node is one this node has a connection with (or had), named by its atom's number as
// display/1 prints it; any other is refused.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/module.hpp"
#include "scheduler/remote_signals.hpp"
#include "vm/ext_ids.hpp"
#include "vm/term_print.hpp"
#include "vm/vm.hpp"

namespace beam {
namespace {

// Limits of erts 25 on 64-bit (erl_term.h, erl_node_container_utils.h, erl_bif_unique.h).
constexpr uint64_t MAX_PID_NUMBER = (1u << 15) - 1;   // _PID_NUM_SIZE
constexpr uint64_t MAX_PID_SERIAL = (1u << 13) - 1;   // _PID_DATA_SIZE - _PID_NUM_SIZE
constexpr uint64_t MAX_PORT_NUMBER = (1u << 28) - 1;  // _PORT_NUM_SIZE
constexpr uint64_t MAX_REF_LOW = 1u << 18;            // MAX_REFERENCE: the last number's bound
constexpr size_t PID_TEXT_MAX = 64;                   // "<X.Y.Z>", three 20-digit numbers
constexpr size_t PORT_TEXT_MAX = 6 + 11 + 21;         // "#Port<" Node "." Num ">"
constexpr size_t REF_TEXT_MAX = 5 + 6 * 11;           // "#Ref<" and up to 6 numbers

// erts' intlist_to_buf: a proper list of integers 0..255 of at most `max` elements.
std::optional<std::string> byte_text(Term t, size_t max) {
    std::string s;
    for (; is_list(t); t = tail(t)) {
        Term h = head(t);
        if (!is_small(h) || small_value(h) < 0 || small_value(h) > 255 || s.size() == max) return std::nullopt;
        s.push_back(char(small_value(h)));
    }
    if (!is_nil(t)) return std::nullopt;
    return s;
}

// A run of decimal digits at `pos` (at least one); nullopt on none or on overflow of 64 bits.
std::optional<uint64_t> digits(const std::string& s, size_t& pos) {
    if (pos >= s.size() || s[pos] < '0' || s[pos] > '9') return std::nullopt;
    uint64_t v = 0;
    for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos) {
        if (v > (UINT64_MAX - 9) / 10) return std::nullopt;
        v = v * 10 + uint64_t(s[pos] - '0');
    }
    return v;
}

bool literal(const std::string& s, size_t& pos, std::string_view lit) {
    if (s.compare(pos, lit.size(), lit) != 0) return false;
    pos += lit.size();
    return true;
}

Term text_of(Process* p, Term t) { return make_string(*p, display_string(t)); }

// The node a text form's N names (vm/term_print.cpp's node_number), with its creation.
bool other_node(Process* p, uint64_t n, Term* node, uint32_t* creation) {
    if (n == 0 || n >= AtomTable::instance().size()) return false;
    RemoteSignals* r = p->vm->remote.load(std::memory_order_acquire);
    *node = make_atom(uint32_t(n));
    return r && r->node_creation(*node, creation);
}

Term list_to_pid_1(Process* p, const Term* a) {
    auto s = byte_text(a[0], PID_TEXT_MAX);
    if (!s) return p->badarg();
    size_t pos = 0;
    std::optional<uint64_t> node, num, serial;
    if (!literal(*s, pos, "<") || !(node = digits(*s, pos)) || !literal(*s, pos, ".") ||
        !(num = digits(*s, pos)) || !literal(*s, pos, ".") || !(serial = digits(*s, pos)) ||
        !literal(*s, pos, ">") || pos != s->size())
        return p->badarg();
    if (*num > MAX_PID_NUMBER || *serial > MAX_PID_SERIAL) return p->badarg();
    if (*node != 0) {
        Term n;
        uint32_t creation;
        if (!other_node(p, *node, &n, &creation)) return p->badarg();
        return make_ext_pid(*p, n, creation, uint32_t(*num), uint32_t(*serial));
    }
    return make_local_pid(*num | *serial << PID_ID_BITS);  // whether or not such a process exists
}

Term list_to_port_1(Process* p, const Term* a) {
    auto s = byte_text(a[0], PORT_TEXT_MAX);
    if (!s) return p->badarg();
    size_t pos = 0;
    std::optional<uint64_t> node, num;
    if (!literal(*s, pos, "#Port<") || !(node = digits(*s, pos)) || !literal(*s, pos, ".") ||
        !(num = digits(*s, pos)) || !literal(*s, pos, ">") || pos != s->size())
        return p->badarg();
    if (*node != 0) {
        Term n;
        uint32_t creation;
        if (!other_node(p, *node, &n, &creation)) return p->badarg();
        return make_ext_port(*p, n, creation, *num);
    }
    if (*num > MAX_PORT_NUMBER) return p->badarg();
    return make_local_port(*num);  // a port id whether or not such a port is open, as in erl
}

// "#Ref<0.A.B.C>": exactly three numbers after the node for a local reference, each below
// 2^32 and C below 2^18. erts also refuses a B whose low bits name a scheduler that does not
// exist (its references carry the scheduler that made them); beamvm's references come from one
// counter (vm/term_refs.hpp) and carry no scheduler, so that check has no equivalent here.
Term list_to_ref_1(Process* p, const Term* a) {
    auto s = byte_text(a[0], REF_TEXT_MAX);
    if (!s) return p->badarg();
    size_t pos = 0;
    if (!literal(*s, pos, "#Ref<")) return p->badarg();
    std::vector<uint64_t> nums;
    for (;;) {
        auto n = digits(*s, pos);
        if (!n || *n > UINT32_MAX || nums.size() == 6) return p->badarg();
        nums.push_back(*n);
        if (pos < s->size() && (*s)[pos] == '>') break;
        if (!literal(*s, pos, ".")) return p->badarg();
    }
    if (!literal(*s, pos, ">") || pos != s->size()) return p->badarg();
    if (nums[0] != 0) {
        Term n;
        uint32_t creation;
        if (nums.size() < 2 || !other_node(p, nums[0], &n, &creation)) return p->badarg();
        std::vector<uint32_t> ids;
        for (size_t i = nums.size(); i-- > 1;) ids.push_back(uint32_t(nums[i]));  // printed most significant first
        return make_ext_ref(*p, n, creation, ids);
    }
    if (nums.size() != 4 || nums[3] >= MAX_REF_LOW) return p->badarg();
    Term* hp = p->alloc(REF_WORDS);
    hp[0] = make_header(Sub::Ref, 3);
    hp[1] = Term{nums[3]};
    hp[2] = Term{nums[2]};
    hp[3] = Term{nums[1]};
    return make_boxed(hp);
}

Term ref_to_list_1(Process* p, const Term* a) { return is_ref(a[0]) ? text_of(p, a[0]) : p->badarg(); }
Term port_to_list_1(Process* p, const Term* a) { return is_port(a[0]) ? text_of(p, a[0]) : p->badarg(); }
// "#Fun<m.Index.Uniq>" for a local fun, "fun m:f/A" for an external one.
Term fun_to_list_1(Process* p, const Term* a) { return is_any_fun(a[0]) ? text_of(p, a[0]) : p->badarg(); }

// {M, F, A}: for a local fun the generated function's name with the fun's own arity (free
// variables not counted, as erl answers); a fun whose code is not loaded has F = [].
Term fun_info_mfa_1(Process* p, const Term* a) {
    Term f = a[0];
    if (is_boxed_sub(f, Sub::Export)) {
        const Export* ep = export_of(f);
        return make_tuple(*p, {ep->module, ep->function, make_small(ep->arity)});
    }
    if (!is_boxed_sub(f, Sub::Fun)) return p->badarg();
    const FunEntry* fe = fun_entry(f);
    return make_tuple(*p, {fe->module, fe->detached ? NIL : fe->function, make_small(fe->fun_arity())});
}

constexpr BifSpec table[] = {
    {"erlang", "list_to_pid", 1, &list_to_pid_1},
    {"erlang", "list_to_port", 1, &list_to_port_1},
    {"erlang", "list_to_ref", 1, &list_to_ref_1},
    {"erlang", "ref_to_list", 1, &ref_to_list_1},
    {"erlang", "port_to_list", 1, &port_to_list_1},
    {"erlang", "fun_to_list", 1, &fun_to_list_1},
    {"erlang", "fun_info_mfa", 1, &fun_info_mfa_1},
};

}  // namespace

std::span<const BifSpec> convert_ids_bifs() { return table; }

}  // namespace beam

// Match specifications from Erlang: erlang:match_spec_test/3, and the natives behind
// ets:match_spec_compile/1, ets:match_spec_run/2 and ets:is_compiled_ms/1 (a compiled spec
// is a magic reference to a vm/match_spec.hpp MatchSpec, as in OTP).
#include <memory>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/match_spec.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {

namespace {

class CompiledMs final : public MagicKind<CompiledMs> {
public:
    explicit CompiledMs(std::unique_ptr<MatchSpec> ms) : ms(std::move(ms)) {}
    std::unique_ptr<MatchSpec> ms;
};

// {error, [{error, Message}]} as erl reports a spec it refuses.
Term compile_errors(Process* p, const std::string& messages) {
    Term list = NIL;
    size_t end = messages.size();
    while (end > 0) {
        size_t start = messages.rfind('\n', end - 1);
        start = start == std::string::npos ? 0 : start + 1;
        Term e = make_tuple(*p, {am::error, make_string(*p, messages.substr(start, end - start))});
        list = cons_at(p->alloc(2), e, list);
        end = start == 0 ? 0 : start - 1;
    }
    return make_tuple(*p, {am::error, list});
}

Term match_spec_test_3(Process* p, const Term* a) {
    MsDialect d;
    if (a[2] == atom("table")) d = MsDialect::Table;
    else if (a[2] == atom("trace")) d = MsDialect::Trace;
    else return p->badarg();
    if (d == MsDialect::Trace && !proper_list_length(a[0])) return p->badarg();
    auto ms = compile_match_spec(a[1], d);
    if (!ms.ok()) return compile_errors(p, ms.error().message);
    MsOutcome out = run_match_spec(*ms.value(), p, a[0]);
    Term flags = NIL;
    if (out.exception_trace) flags = cons_at(p->alloc(2), atom("exception_trace"), flags);
    if (out.return_trace) flags = cons_at(p->alloc(2), atom("return_trace"), flags);
    Term result = out.result;
    if (d == MsDialect::Trace && !out.matched) result = am::false_;
    return make_tuple(*p, {am::ok, result, flags, NIL});
}

Term match_spec_compile_1(Process* p, const Term* a) {
    auto ms = compile_match_spec(a[0], MsDialect::Table);
    if (!ms.ok()) return p->badarg();
    return make_magic_ref(*p, new CompiledMs(std::move(ms.value())));
}

Term is_compiled_ms_1(Process*, const Term* a) { return make_bool(magic_cast<CompiledMs>(a[0]) != nullptr); }

// ets:match_spec_run_r(Objects, Compiled, Acc): the results of the objects that match,
// last first, in front of Acc.
Term match_spec_run_r_3(Process* p, const Term* a) {
    auto* c = magic_cast<CompiledMs>(a[1]);
    if (!c || !proper_list_length(a[0])) return p->badarg();
    Term acc = a[2];
    for (Term l = a[0]; is_list(l); l = tail(l)) {
        MsOutcome out = run_match_spec(*c->ms, p, head(l));
        if (out.matched) acc = cons_at(p->alloc(2), out.result, acc);
    }
    return acc;
}

const BifSpec table[] = {
    {"erlang", "match_spec_test", 3, &match_spec_test_3},
    {"ets", "match_spec_compile", 1, &match_spec_compile_1},
    {"ets", "is_compiled_ms", 1, &is_compiled_ms_1},
    {"ets", "match_spec_run_r", 3, &match_spec_run_r_3},
};

}  // namespace

std::span<const BifSpec> match_spec_bifs() { return table; }

}  // namespace beam

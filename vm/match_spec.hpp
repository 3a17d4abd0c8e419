// Match specifications ([{Head, Guards, Body}]), as ets:select/2, ets:match_spec_run/2,
// erlang:match_spec_test/3 and (later) trace patterns use them. A spec is checked and
// compiled once into trees of nodes (variables resolved to slots, guard functions to their
// natives, constant subterms copied into the spec's own area), so running it per object
// neither looks anything up nor builds terms it does not return. Thread-safe to run from many
// processes at once: a run keeps its bindings on its own stack.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vm/heap.hpp"
#include "vm/result.hpp"
#include "vm/term.hpp"

namespace beam {

class Process;
struct BifSpec;

enum class MsDialect { Table, Trace };

// One node of a compiled head pattern or expression (vm/match_spec_compile.cpp).
struct MsNode {
    enum Kind : uint8_t {
        // patterns
        Any,     // '_'
        Bind,    // first occurrence of '$N' in the head: binds slot
        Same,    // later occurrence: must be =:= the bound value
        Exact,   // a subterm without variables: =:=
        Tuple,   // kids: elements
        List,    // kids: the elements' patterns, then the tail's (a list of any length, flat)
        MapPat,  // `term` is the keys tuple (constants); kids: value patterns in key order
        // expressions
        Const,     // `term`
        Var,       // slot
        Whole,     // '$_'
        AllVars,   // '$$'
        Call,      // bif(kids...)
        IsRecord,  // is_record(kid0, term = name, size)
        MakeTuple, MakeList, MakeMap,  // MakeList: kids as List  // MakeMap: term = keys tuple when keys are constant, else kids alternate key, value
        And, Or, AndAlso, OrElse,
        Self,
        Special,  // trace dialect forms: term = name atom
    };
    Kind kind;
    uint32_t slot = 0;  // Bind/Same/Var; MakeMap: 1 when keys are in kids
    Term term = NIL;
    const BifSpec* bif = nullptr;
    std::vector<MsNode> kids;
};

struct MsClause {
    std::vector<uint32_t> all_vars;  // slots of the head's variables in order of N ('$$')
    MsNode head;
    std::vector<MsNode> guards;
    std::vector<MsNode> body;
};

class MatchSpec {
public:
    MsDialect dialect;
    std::vector<MsClause> clauses;
    uint32_t slots = 0;                 // distinct variables, over all clauses
    std::vector<uint32_t> var_numbers;  // slot -> N of '$N' (for '$$', in order of N)
    LiteralArea area;                   // constants the nodes refer to
};

// Checks and compiles `spec`. Errors carry OTP's messages, one per problem found (as
// erlang:match_spec_test/3 reports them), separated by newlines in Error::message.
Result<std::unique_ptr<MatchSpec>> compile_match_spec(Term spec, MsDialect dialect);

// What running a spec on one object gave.
struct MsOutcome {
    bool matched = false;
    Term result = NON_VALUE;  // Table: the body's value ('EXIT' if it failed); Trace: see below
    // Trace dialect: the message the trace would carry (true, false or a term set by
    // message/1) and the action flags set by the body (return_trace, exception_trace).
    bool return_trace = false;
    bool exception_trace = false;
};

// A traced call a trace pattern's spec runs for (vm/trace_calls.cpp): what caller() gives.
struct MsTraceCall {
    Term caller = NON_VALUE;       // {M, F, A} of the calling function, or undefined
    Term caller_line = NON_VALUE;  // {M, F, A, {File, Line}}, or undefined
};

// Runs the clauses in order on `object` in process `p` (results built on its heap). In the
// trace dialect `object` is the list of call arguments.
// `effects`: whether trace actions change anything (set_tcw, silent, enable_trace, ...);
// erlang:match_spec_test/3 runs without them, as erl's does. `call` is the traced call.
MsOutcome run_match_spec(const MatchSpec& ms, Process* p, Term object, bool effects = false,
                         const MsTraceCall* call = nullptr);

}  // namespace beam

// libFuzzer target: match specifications (vm/match_spec_compile.cpp, vm/match_spec_run.cpp), as
// erlang:match_spec_test/3 uses them: a spec checked and compiled in the table or the trace
// dialect, then run on an object in a process of a real (not started) VM.
//
// Input: Dialect:8 (bit 0: trace), then the spec and the object, each a term in the external
// format (with its 131 byte), one after the other. The seeds are real specs (tools/fuzz.sh,
// tests/fuzz/seeds/match_specs.txt) and the dictionary the atoms specs are made of.
// Checks beyond memory safety: a spec refused has a message, and what a run returns is a term
// that encodes.
#include <cstdlib>
#include <memory>
#include <vector>

#include "bifs/bif_util.hpp"
#include "vm/ext_term.hpp"
#include "vm/match_spec.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

using namespace beam;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static VM* vm = new VM();  // lives for the whole run, as the process's VM
    if (size < 1) return 0;
    MsDialect dialect = data[0] & 1 ? MsDialect::Trace : MsDialect::Table;
    Process p(vm, &vm->root(), make_local_pid(1), 233);
    std::span<const uint8_t> rest(data + 1, size - 1);
    size_t used = 0;
    auto spec = decode_external(p, rest, &used);
    if (!spec.ok()) return 0;
    rest = rest.subspan(used);
    auto object = decode_external(p, rest, &used);
    if (!object.ok()) return 0;
    // The trace dialect runs on a call's argument list, as match_spec_test/3 requires.
    if (dialect == MsDialect::Trace && !proper_list_length(object.value())) return 0;

    auto ms = compile_match_spec(spec.value(), dialect);
    if (!ms.ok()) {
        if (ms.error().message.empty()) std::abort();
        return 0;
    }
    MsOutcome out = run_match_spec(*ms.value(), &p, object.value());
    if (out.matched || dialect == MsDialect::Trace) {
        std::vector<uint8_t> bytes;
        if (out.result != NON_VALUE && !encode_external(out.result, bytes).ok()) std::abort();
    }
    return 0;
}

// Call tracing's breakpoints (erlang:trace_pattern/3): what a traced function or export entry
// carries, and how tracing is switched on and off while other schedulers run the code.
//
// Local breakpoints (local, meta, call_count, call_time) live in the function's code: every
// function is `[func_info FunctionInfo*][first instruction ...]`, and tracing it replaces
// the first instruction's handler word (FunctionInfo::entry[0]) by trace_breakpoint's. That
// handler finds the FunctionInfo in the word before the entry, its Breakpoint through
// FunctionInfo::bp, traces, and continues at the handler word it replaced with I unchanged,
// so the instruction runs on its own operands. An untraced function is not touched: a call
// pays nothing while tracing is off.
//
// Global breakpoints (only calls through the export entry: external calls, apply, `fun M:F/A`)
// swap Export::address to the two-word stub of an ExportTrace, [trace_export, ExportTrace*],
// which traces and jumps where the export pointed before.
//
// Every switch is one word-sized atomic store. A Breakpoint is never freed while its code
// lives (ModuleCode::breakpoints owns it): another scheduler may be inside trace_breakpoint
// reading it after it was switched off. ExportTraces live as long as the VM (export entries
// are never freed either). Loading a new version leaves its functions untraced and points
// the exports at it, which ends their global tracing too: erl does the same.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "vm/atomic_shared_ptr.hpp"
#include "vm/heap.hpp"
#include "vm/match_spec.hpp"
#include "vm/trace.hpp"

namespace beam {

struct Export;
struct FunctionInfo;
struct ModuleCode;
class Namespace;
class VM;

namespace bp_flag {
inline constexpr uint32_t LOCAL = 1u << 0;
inline constexpr uint32_t META = 1u << 1;
inline constexpr uint32_t COUNT = 1u << 2;
inline constexpr uint32_t TIME = 1u << 3;
inline constexpr uint32_t COUNT_PAUSED = 1u << 4;  // call_count set but not counting
inline constexpr uint32_t TIME_PAUSED = 1u << 5;
// erts_debug:breakpoint/2: the call continues in ErrorHandler:breakpoint(M, F, Args) instead.
inline constexpr uint32_t DEBUG = 1u << 6;
}  // namespace bp_flag

// A trace pattern's match specification as trace_pattern/3 got it: compiled (null for
// `true`, i.e. []) and the source term kept for trace_info. Immutable once made.
struct TraceMatchSpec {
    std::unique_ptr<MatchSpec> compiled;
    LiteralArea area;
    Term source = NIL;
};
using TraceMatchSpecRef = std::shared_ptr<const TraceMatchSpec>;

// Calls and time of one process in a call_time breakpoint.
struct CallTime {
    uint64_t count = 0;
    uint64_t ns = 0;
};

struct Breakpoint {
    Word original = 0;  // the entry's handler word the breakpoint replaced
    std::atomic<uint32_t> flags{0};
    AtomicSharedPtr<const TraceMatchSpec> local_ms;
    AtomicSharedPtr<const TraceMatchSpec> meta_ms;
    AtomicSharedPtr<const Tracer> meta_tracer;
    std::atomic<int64_t> count{0};
    std::mutex time_mutex;  // guards times
    std::unordered_map<Word, CallTime> times;  // by pid
};

struct ExportTrace {
    Word stub[2] = {0, 0};  // [trace_export][this]
    Export* exp = nullptr;
    std::atomic<const Word*> target{nullptr};  // where the export pointed before tracing
    AtomicSharedPtr<const TraceMatchSpec> ms;
    bool active() const;  // the export points at the stub
};

// The VM's call-tracing state: guarded by `mutex` except where atomics say otherwise.
struct CallTracing {
    std::mutex mutex;
    std::vector<std::unique_ptr<ExportTrace>> export_traces;
    // trace_pattern(on_load, ...): applied to every module loaded afterwards.
    struct OnLoad {
        bool set = false;
        uint32_t flags = 0;  // trace_pattern's flags: bp_flag bits, or GLOBAL
        TraceMatchSpecRef ms;
        TraceMatchSpecRef meta_ms;
        TracerRef meta_tracer;
    } on_load;
    std::atomic<bool> on_load_set{false};  // on_load.set, read by every load without the lock
    // How many BIF exports are traced: the BIF call path looks at it (one predictable branch).
    std::atomic<int> bifs_traced{0};
};

// The breakpoint of a function (null if it was never traced). Lock-free.
Breakpoint* breakpoint_of(const FunctionInfo& fi);
// The breakpoint of fi in version mc, made on first use. Under CallTracing::mutex.
Breakpoint* ensure_breakpoint(ModuleCode& mc, FunctionInfo& fi);
// After a Breakpoint's flags changed: patches fi's entry to trace_breakpoint, or back.
void update_entry(FunctionInfo& fi, Breakpoint& bp);
// The export's trace stub, made on first use (under CallTracing::mutex).
ExportTrace* ensure_export_trace(CallTracing& ct, Export* e);
// Global tracing on (the export now goes through its stub) or off.
void set_export_trace(ExportTrace& t, bool on);
// A version that stops being current loses its breakpoints (erl clears them on load and
// delete_module). Called with the namespace's lock held.
void clear_breakpoints(VM& vm, ModuleCode& mc);
// A version just made current in ns gets trace_pattern(on_load, ...)'s pattern, if one is
// set (bifs/system_trace_pattern.cpp). Called with the namespace's lock held.
void apply_on_load_pattern(VM& vm, Namespace& ns, ModuleCode& mc);

}  // namespace beam

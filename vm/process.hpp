// A process: its heap and stack, exception state, and what the scheduler needs to resume it.
//
// Memory: one block per process; the heap grows up from `heap`, the stack grows down from
// `hend`. `htop` and `stop` meet in the middle. The words between them are free; the
// interpreter's test_heap/allocate check that gap once and then bump without checks.
// S_RESERVED words are always kept free so a call can push its return address unchecked.
//
// Stack frames: a call pushes the return address (a code pointer; tag bits 00 like a header,
// which no stack slot can otherwise hold), `allocate N` reserves N y slots below it, so y(i)
// is stop[i] and the return address of the frame sits at stop[N].
#pragma once

#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "vm/atomic_shared_ptr.hpp"
#include "vm/atom_table.hpp"
#include "vm/heap.hpp"
#include "vm/message_queue.hpp"
#include "vm/nif_call.hpp"
#include "vm/recv_markers.hpp"
#include "scheduler/process_sched.hpp"
#include "vm/term.hpp"
#include "vm/trace.hpp"

namespace beam {

struct Signal;  // scheduler/signal.hpp

struct FunctionInfo;

struct Export;
struct Tracer;
struct SeqTrace;

class VM;
class Namespace;
struct ModuleCode;

inline constexpr size_t MAX_X_REGS = 1024;

// Exception classes as stored in Process::fclass.
enum class ErrorClass : uint8_t { Error, Exit, Throw };

// spawn_opt/process_flag max_heap_size (OTP's defaults: no limit, kill, report).
struct MaxHeapSize {
    size_t size = 0;  // words, young + old heap blocks; 0 = no limit
    bool kill = true;
    bool error_logger = true;
};

// OTP's defaults for the heap options, as process_info/system_info report them.
inline constexpr size_t DEFAULT_MIN_BIN_VHEAP = 46422;
inline constexpr uint32_t DEFAULT_FULLSWEEP_AFTER = 65535;


class Process final : public TermAllocator {
public:
    Process(VM* vm, Namespace* ns, Term pid, size_t min_heap_words);
    ~Process() override;
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    // ---- allocation for BIFs and runtime services ----
    // alloc (vm/heap.hpp) bumps the gap between htop and stop; when it is too small, the words
    // come from a heap fragment (no GC inside a BIF, so raw pointers a BIF holds stay valid).
    // The next GC merges fragments.
    // Links an off-heap object made for this process and counts it in vheap_words.
    void link_offheap(Term* procbin) override;
    // Links one whose memory is already counted (a new RefcBin on a blob this process grew).
    void link_offheap_counted(Term* procbin);
    size_t heap_free() const { return size_t(stop - htop); }

    // ---- exceptions: every path returns NON_VALUE after setting these ----
    Term raise(ErrorClass c, Term reason) {
        fclass = c;
        fvalue = reason;
        fargs = NON_VALUE;
        ftop = NON_VALUE;
        ferror_info = NON_VALUE;
        fcause = NON_VALUE;
        fskip_pc_frame = false;
        ftrace_preset = false;
        return NON_VALUE;
    }
    Term error(Term reason) { return raise(ErrorClass::Error, reason); }
    Term badarg() { return error(am::badarg); }
    // Error with a 2-tuple reason {Tag, Value}, e.g. {badmatch, V}.
    Term error2(Term tag, Term value);

    // ---- identity and context ----
    VM* vm;
    Namespace* ns;
    Term pid;

    // ---- young heap and stack block ----
    Term* heap = nullptr;  // htop and stop: TermAllocator's
    Term* hend = nullptr;
    Term* high_water = nullptr;  // data below this survived one minor GC
    size_t min_heap_size;

    // ---- old generation ----
    Term* old_heap = nullptr;
    Term* old_htop = nullptr;
    Term* old_hend = nullptr;

    HeapFragment* fragments = nullptr;
    size_t fragment_words = 0;  // total words in fragments, to decide when to collect
    // Binary virtual heaps, as OTP's bin_vheap and bin_old_vheap, in words of off-heap data (a
    // RefcBin's bytes, a magic object's byte_size(), rounded up; vm/heap_offheap.hpp):
    // - vheap_words: taken in since the last collection: binaries and magic objects this
    //   process made (link_offheap), received in messages (adopt_buffer) or read from files.
    //   Past vheap_limit the next heap check or call collects, so a loop that makes large
    //   binaries frees the dead ones as it goes, not at whatever collection its heap's words
    //   happen to need. The limit follows what each collection keeps (vm/gc.cpp).
    // - old_vheap_words: promoted to the old heap since the last full sweep. Past
    //   old_vheap_limit the next collection is a full sweep.
    // The counts saturate (add_saturating).
    uint32_t vheap_words = 0;
    uint32_t vheap_limit = uint32_t(DEFAULT_MIN_BIN_VHEAP);
    uint32_t old_vheap_words = 0;
    uint32_t old_vheap_limit = uint32_t(DEFAULT_MIN_BIN_VHEAP);
    static uint32_t add_saturating(uint32_t count, size_t words) {
        return uint32_t(std::min<size_t>(size_t(count) + words, UINT32_MAX));
    }
    // min_bin_vheap_size, which both limits never go below.
    void set_min_bin_vheap_size(size_t words) {
        min_bin_vheap_size = words;
        uint32_t floor = uint32_t(std::min<size_t>(words, UINT32_MAX));
        vheap_limit = std::max(vheap_limit, floor);
        old_vheap_limit = std::max(old_vheap_limit, floor);
    }
    Term* offheap = nullptr;    // first off-heap object this process references (vm/heap_offheap.hpp)
    // Fragments past half the heap's size, or vheap_words past vheap_limit: the next heap
    // check or call collects. One flag (gc_due, below, in padding), so that every call tests
    // a single byte; kept here where those counts grow, cleared by the collection.
    void note_growth_outside_heap() {
        gc_due = (fragments && fragment_words > size_t(hend - heap) / 2) || vheap_words > vheap_limit;
    }

    // ---- exception state (fclass is below, with the flags, to save padding) ----
    Term fvalue = NIL;       // reason
    Term fargs = NON_VALUE;  // for undef/function_clause: the argument list, else NON_VALUE
    Term ftrace = NIL;       // the stack trace term built when the exception was raised

    // ---- execution state saved while not running ----
    const Word* pc = nullptr;
    uint32_t arity = 0;           // live x registers at the save point
    uint32_t catches = 0;
    std::vector<Term> saved_x;    // x0..x(arity-1) while scheduled out
    int64_t reductions = 0;       // of finished slices (and charges such as bump_reductions)
    int64_t slice_reds_used = 0;  // of the running slice, as of its last SWAPOUT (vm/interp.cpp)

    Term ftop = NON_VALUE;        // prebuilt first frame of the trace (failed BIF, undef)
    Term ferror_info = NON_VALUE; // {error_info, Map} from error/3, added to the raiser's frame
    Term fcause = NON_VALUE;      // a failed BIF's `cause` for its error_info map (OTP's EXF_HAS_EXT_INFO)
    ErrorClass fclass = ErrorClass::Error;
    bool fskip_pc_frame = false;  // the raising instruction already pushed its return address
    bool ftrace_preset = false;   // ftrace is given (erlang:raise/3, rethrow): do not rebuild
    bool halt_requested = false;  // erlang:halt/1 was called; the VM exits with halt_status
    int halt_status = 0;

    // ---- a BIF that continues in Erlang (OTP's BIF_TRAP) ----
    // Set by trap(), taken by the interpreter as soon as the BIF returns: the arguments go to
    // x0.. and the BIF's call becomes a call of `trap_to` (vm/interp.cpp, CALL_BIF_X). Used
    // where OTP's BIF waits for a reply signal in Erlang code (is_process_alive/1).
    Export* trap_to = nullptr;
    Term trap_args[3] = {NIL, NIL, NIL};
    uint32_t trap_arity = 0;
    bool gc_due = false;  // see note_growth_outside_heap()
    // erts_internal:garbage_collect(minor) asked the next gc_now instruction for a minor
    // collection (bifs/system.cpp); gc_now collects fully otherwise.
    bool gc_now_minor = false;
    // erts_debug:set_internal_state(gc_state, false): requested collections wait (system tasks,
    // scheduler/signals.hpp) until it is cleared.
    bool gc_requests_held = false;
    Term trap(Export* to, std::initializer_list<Term> args) {
        trap_to = to;
        trap_arity = 0;
        for (Term a : args) trap_args[trap_arity++] = a;
        return NON_VALUE;
    }

    // ---- mailbox (GC roots) ----
    // Change it only through these two, which keep the length other processes may read.
    // Every message entering the queue (ordinary, EXIT, DOWN, replies) passes here, so the
    // 'receive' trace event is emitted here, after the message is in.
    // `seq_token`: what the message brings for seq_trace (vm/seq_trace.hpp), kept only while
    // the process has seq_trace state.
    void mailbox_push(Term msg, Term seq_token = am::undefined) {
        mailbox.push_back(msg);
        if (seq_trace) [[unlikely]] seq_mailbox_push(seq_token);
        mailbox_len.store(mailbox.size(), std::memory_order_relaxed);
        if (trace_flags.load(std::memory_order_relaxed) & trace_flag::RECEIVE) [[unlikely]] trace_receive_event(this, msg);
    }
    void mailbox_erase(size_t i) {
        mailbox.erase_at(i);
        if (seq_trace) [[unlikely]] seq_mailbox_erase(i);
        mailbox_len.store(mailbox.size(), std::memory_order_relaxed);
        recv_markers.message_removed(i);
        if (mailbox.size() <= PORTS_RESUME_AT) {
            // Pairs with the port thread's store of ports_waiting then load of mailbox_len
            // (scheduler/port_io.cpp): one of the two sides sees the other's write.
            std::atomic_thread_fence(std::memory_order_seq_cst);
            if (ports_waiting.load(std::memory_order_relaxed)) wake_ports();
        }
    }
    // Ports this process owns stop reading while its mailbox is long (scheduler/port_io.cpp);
    // the receive that brings it down to PORTS_RESUME_AT wakes their I/O thread (an eventfd).
    static constexpr size_t PORTS_RESUME_AT = 16;
    std::atomic<bool> ports_waiting{false};
    std::atomic<int> ports_wake_fd{-1};
    void wake_ports();
    bool timed_out = false;
    // wait_timeout has run in the current receive. Its operand is then not read again: it may
    // be an x register, and nothing is live in x registers across a receive (OTP: F_TIMO).
    bool receive_timeout_armed = false;
    bool trap_exit = false;
    // Message terms, oldest first (vm/message_queue.hpp: no allocation until the first one).
    MessageQueue mailbox;
    std::atomic<size_t> mailbox_len{0};
    size_t mailbox_save = 0;    // receive scan position
    RecvMarkers recv_markers;   // mailbox positions for receives that wait for a new reference

    Term dictionary = NIL;  // process dictionary as a list of {Key, Value}
    Term group_leader = NIL;
    Term parent = am::undefined;  // the spawner (process_info(P, parent)); undefined for the VM's own
    Term priority = am::normal;

    // ---- scheduling (scheduler/) ----
    ProcessSched sched;
    uint64_t gc_count = 0;
    uint32_t minor_gcs_since_full = 0;  // the GC forces a full sweep after fullsweep_after minors
    uint32_t young_underused_gcs = 0;   // consecutive minors leaving the young heap < 1/4 used
    uint32_t reds_at_last_gc = 0;       // reductions (low 32 bits) at the last collection
    bool waited_since_gc = false;       // has waited in a receive since the last collection
    // The first minor after a full sweep shrank the young heap at once (vm/gc.cpp), and the
    // heap had to grow back within the same cycle: this process does not shrink early again.
    bool shrunk_after_full = false;
    bool regrew_after_shrink = false;

    // ---- heap options (spawn_opt, process_flag; process_info reports them) ----
    // min_heap_size (above) and min_bin_vheap_size hold OTP's rounded values.
    size_t min_bin_vheap_size = DEFAULT_MIN_BIN_VHEAP;  // words; the young vheap's limit
    MaxHeapSize max_heap;                                // enforced by the GC (vm/gc.cpp)
    uint32_t fullsweep_after = DEFAULT_FULLSWEEP_AFTER;  // OTP keeps 16 bits of it
    bool message_queue_off_heap = false;                 // messages stay as fragments (else taken onto the heap)
    Term error_handler = am::error_handler;              // module whose undefined_function/3 gets undefined calls
    std::atomic<uint32_t> save_calls{0};                 // process_flag/3 may set it from another process

    // ---- tracing (vm/trace.hpp: read and change them through its functions) ----
    std::atomic<uint32_t> trace_flags{0};
    AtomicSharedPtr<const Tracer> tracer;
    // seq_trace (vm/seq_trace.hpp): null until the process first has or is sent a token.
    std::unique_ptr<SeqTrace> seq_trace;
    // system_profile runnable_procs (vm/system_monitor.hpp): the profile generation in which
    // this process was last reported, shifted left by one, | 1 if reported active.
    uint32_t profile_state = 0;
    void seq_mailbox_push(Term token);
    void seq_mailbox_erase(size_t i);
    // A call-tracing frame (return_trace, return_to) was pushed on its stack at some time:
    // exceptions look for them as they unwind (vm/trace_calls.hpp). Owner only.
    bool call_trace_frames = false;
    // A traced BIF bound at load time is being called from here (vm/trace_calls.hpp).
    const Word* traced_bif_caller = nullptr;  // for return_to, taken by the breakpoint
    const Word* bif_call_site = nullptr;      // for exceptions, taken by bif_body

    // ---- fields few processes ever use, allocated at first use (issue 11) ----
    struct Rare {
        // process_flag(monitor_nodes | {monitor_nodes, Opts}, Bool): subscriptions per option
        // set (bifs/system_process_flags.cpp). No node ever comes up or goes down without
        // distribution.
        std::vector<std::pair<uint32_t, uint32_t>> node_monitors;
        // call_time: the call_time-traced function running now and since when (monotonic ns).
        const FunctionInfo* call_time_fn = nullptr;
        int64_t call_time_since = 0;
        // A NIF call in progress: rescheduled by enif_schedule_nif or on a dirty scheduler
        // (vm/nif_call.hpp). Owned by whoever runs the process.
        NifContinuation nif;
        // The step it executes dirty, for process_info's current_function meanwhile (`nif`
        // belongs to the dirty scheduler then). Set before sched.dirty is stored and again
        // between steps on the same dirty scheduler (a reader may then pair one step's name
        // with the other's arity, for that moment).
        std::atomic<Word> dirty_module{0}, dirty_name{0};
        std::atomic<uint16_t> dirty_arity{0};
        // System tasks taken from signals and not run yet (scheduler/signals.hpp
        // run_system_tasks). Owned by whoever runs the process.
        std::vector<Signal*> system_tasks;
        // Literal areas this process erased or replaced (persistent terms), released as a
        // system task too (vm/literal_release.hpp): erts' erase returns before the copying.
        std::vector<std::unique_ptr<LiteralArea>> literal_releases;
    };
    Rare& rare();
    const Rare* rare_if_any() const { return rare_.get(); }

protected:
    Term* alloc_slow(size_t words) override;

private:
    struct RareDeleter {
        void operator()(Rare* r) const;
    };
    std::unique_ptr<Rare, RareDeleter> rare_;
};

inline uint32_t trace_flags_of(const Process* p) {
    uint32_t f = p->trace_flags.load(std::memory_order_acquire);
    return (f & trace_flag::SENSITIVE) ? 0 : f;
}
inline uint32_t trace_flags_raw(const Process* p) {
    return p->trace_flags.load(std::memory_order_acquire) & ~trace_flag::SENSITIVE;
}
inline bool is_sensitive(const Process* p) {
    return p->trace_flags.load(std::memory_order_relaxed) & trace_flag::SENSITIVE;
}

}  // namespace beam

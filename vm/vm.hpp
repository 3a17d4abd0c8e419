// One virtual machine instance: code tables, code path, id counters. Everything a running
// process needs beyond itself is reached through Process::vm; there is no other global state
// except the atom table (shared, immutable entries).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "scheduler/aliases.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "scheduler/timers.hpp"
#include "vm/persistent_terms.hpp"
#include "vm/emulator_options.hpp"
#include "vm/code_table.hpp"
#include "vm/namespace_registry.hpp"
#include "vm/node_identity.hpp"
#include "vm/result.hpp"
#include "vm/seq_trace.hpp"
#include "vm/system_flags.hpp"
#include "vm/system_monitor.hpp"
#include "vm/breakpoints.hpp"
#include "vm/trace_message_patterns.hpp"
#include "vm/trace.hpp"

namespace beam {

struct EtsRegistry;
class HostLink;
class PortSystem;
class RemoteSignals;

class VM {
public:
    VM();
    ~VM();

    Namespace& root() { return *root_; }

    // Code path: searched in order for Mod.beam when a module is first called.
    void add_path_front(const std::string& dir);  // -pa
    void add_path_back(const std::string& dir);   // -pz
    void set_otp_root(const std::string& root);   // adds root/lib/*/ebin at the end
    // code:del_path/1: removes a directory, or (by_name) the .../Name[-Vsn]/ebin entry.
    bool del_path(const std::string& name, bool by_name);
    std::vector<std::string> code_path();  // a copy: other processes may change it meanwhile
    // beamvm's own start-up modules (boot/): what erlang:pre_loaded/0 lists.
    void set_boot_dir(const std::string& dir);
    std::vector<std::string> pre_loaded();
    const std::string& otp_root() const { return otp_root_; }
    const std::string& erts_ebin() const { return erts_ebin_; }
    // A file name made absolute as OTP's filename:absname/1 does (loaded modules' file names).
    static std::string absname(const std::string& path);
    // Mod.beam's path on the code path, or "" if it is not there.
    std::string find_on_path(Term module);

    // Loading phase 1 (erlang:prepare_loading/2): parses and transforms a version that nothing
    // can reach yet. Namespace::commit is phase 2; a version never committed goes to
    // retire_code. Errors name the origin, the chunk and the offset.
    Result<std::unique_ptr<ModuleCode>> prepare(Namespace& ns, std::span<const uint8_t> bytes, const std::string& origin);
    bool is_otp_preloaded(const std::string& path) const;
    // Loads a module from bytes into `ns` (prepare + commit). Errors name the module and reason;
    // a module with an on_load function is not loaded (error "...: on_load"): see finish_loading.
    Result<ModuleCode*> load_binary(Namespace& ns, std::span<const uint8_t> bytes, const std::string& origin);
    Result<ModuleCode*> load_file(Namespace& ns, const std::string& path);
    // Finds Mod.beam on the code path and loads it, unless already loaded (autoload). One
    // loader per module at a time; loads of other modules go on meanwhile. A caller that finds
    // another one loading the module waits, or with !wait gets the error AUTOLOAD_BUSY (the
    // interpreter then retries in the process's next time slice instead of blocking its
    // scheduler).
    Result<ModuleCode*> ensure_loaded(Namespace& ns, Term module, bool wait = true);
    static constexpr std::string_view AUTOLOAD_BUSY = "busy: another process is loading it";

    // The module version whose code contains `pc` (current or old), or nullptr.
    ModuleCode* code_at(const Word* pc);
    // A purged version leaves: its memory is freed, unless `keep` (a process that may still
    // run it could not be looked at), in which case it stays for good.
    void retire_code(std::unique_ptr<ModuleCode> code, bool keep);
    // Before a version is purged: its fun entries leave it (funs on heaps point at them) and
    // become detached, so a call of such a fun looks for matching current code or raises badfun.
    void detach_funs(ModuleCode& code);
    // Module versions in memory, and their words of code and literals (tests, memory reports).
    size_t code_versions();
    size_t code_words();

    uint64_t next_pid() {
        uint64_t n = pid_counter_.fetch_add(1, std::memory_order_relaxed);
        if (n == pid_gap_after_) pid_counter_.fetch_add(pid_gap_, std::memory_order_relaxed);
        return n;
    }
    // Booted OTP numbers its processes as erts does (tools/otp_boot.cpp): from <0.0.0>, and
    // with `gap` numbers left out after `after` (where erl starts processes beamvm has not).
    void number_pids_from(uint64_t first, uint64_t after, uint64_t gap) {
        pid_counter_.store(first);
        pid_gap_after_ = after;
        pid_gap_ = gap;
    }
    uint64_t next_unique() { return unique_counter_.fetch_add(1, std::memory_order_relaxed); }

    // Booting OTP's own init and kernel (tools/otp_boot.cpp): OTP's code module and
    // code_server own the code path and loading, so beamvm's stand-ins for them are off, and
    // a call of a module that is not loaded goes to error_handler as in OTP. Only OTP's
    // preloaded modules (erts' ebin) and beamvm's own are loaded by the VM itself. Set before
    // anything is loaded.
    bool otp_boot = false;
    Term init_pid = NIL;  // booted OTP: the first process, init

    // Tracing (vm/trace.hpp): the flags and tracer trace(new | new_processes, ...) gives new
    // processes, and trace(all, _, [cpu_timestamp]). The mutex guards new_process_trace.tracer.
    std::mutex trace_mutex;
    NewProcessTrace new_process_trace;
    NewProcessTrace new_port_trace;  // trace(new_ports | new | all, ...): what new ports get
    std::atomic<bool> cpu_timestamp{false};
    SeqTraceSystem seq_trace;  // the sequential tracer and reset epoch (vm/seq_trace.hpp)
    SystemMonitor sysmon;      // erlang:system_monitor/2's settings (vm/system_monitor.hpp)
    SystemProfile sysprof;     // erlang:system_profile/2's settings
    // Call tracing: trace_pattern's breakpoints (vm/breakpoints.hpp).
    CallTracing call_tracing;
    // trace_pattern(send | 'receive', ...) (vm/trace_message_patterns.hpp).
    MessageTracePattern send_trace_pattern;
    MessageTracePattern receive_trace_pattern;

    // erts_debug:set_internal_state(available_internal_state, Bool) (bifs/system_internal_state.cpp).
    bool internal_state_available = false;

    // The command line the VM was started with, program name first (system_info(emu_args)).
    std::vector<std::string> emu_args;

    // Where erlang:display and the built-in I/O server write.
    FILE* out = stdout;
    // The program that embeds this VM (vm/host_link.hpp), or null; set before start().
    HostLink* host = nullptr;

    // Set by the command line (tools/main.cpp): once the VM is done, the OS process exits
    // there and then, as erl's halt does, instead of stopping the schedulers and freeing every
    // table first; unless a port was opened, whose OS processes get their orderly shutdown
    // (vm/runner.cpp). An embedding program leaves it false.
    bool exit_process_when_done = false;

    // This node's name and creation (vm/node_identity.hpp): nonode@nohost/0 until
    // erlang:setnode/2. Its scheduler threads take it as their thread's identity.
    NodeIdentity node;
    // erl's +W w|i|e: what error_logger:warning_map/0 answers (warning, info or error).
    Term warning_map = NIL;  // NIL: warning, erl's default
    // What erl's other emulator flags set, as system_info reports them (tools/emu_flags.cpp).
    EmulatorOptions emu_options;
    // What erlang:system_flag/2 sets (vm/system_flags.hpp).
    SystemFlags sys_flags;

    // ETS tables by name and owner (ets/ets_registry.hpp); declared before `procs`, so it goes
    // after every process (and its references to tables) is freed.
    std::unique_ptr<EtsRegistry> ets_tables;
    ProcessTable procs;
    AliasRoutes aliases;  // alias reference -> owner (scheduler/aliases.hpp)
    NamespaceRegistry namespaces{this};  // every namespace but the root

    // persistent_term (vm/persistent_terms.hpp, bifs/system_persistent.cpp).
    PersistentTerms persistent;
    // erlang:prepare_loading/2's versions, by the number of the reference handed out, until
    // finish_loading/1 takes them. One never finished stays (OTP frees it with the reference).
    struct Prepared {
        Namespace* ns;
        std::unique_ptr<ModuleCode> code;
    };
    struct PreparedCode {
        std::mutex mutex;
        std::unordered_map<uint64_t, Prepared> items;
    } prepared;
    TimerService timers{this};
    std::unique_ptr<Schedulers> scheds;  // created by start()
    std::unique_ptr<PortSystem> ports;   // scheduler/ports.hpp: created on first use
    std::once_flag ports_once;
    std::atomic<bool> ports_started{false};  // set as `ports` is created: safe to read anywhere
    // The distribution layer (dist/dist_system.hpp), created on first use by dist_of(); the
    // layers below reach it only as `remote`, null until then.
    std::shared_ptr<RemoteSignals> dist_layer;
    std::once_flag dist_once;
    std::atomic<RemoteSignals*> remote{nullptr};

    // Dirty scheduler threads (scheduler/dirty_schedulers.hpp), set before start(): erl's
    // defaults are as many dirty CPU schedulers as schedulers (0 here) and 10 dirty I/O ones.
    int dirty_cpu_schedulers = 0;
    int dirty_io_schedulers = 10;

    // Starts `count` scheduler threads and the timer thread.
    void start(int scheduler_count);
    // A new process in the table, not yet runnable, with a reference held for the caller
    // (ProcessTable::release when done). Set it up with setup_call/setup_fun_call, add links
    // or monitors, then scheds->activate it.
    Process* new_process(Namespace& ns, size_t min_heap, Term group_leader, bool system = false);
    void setup_call(Process* p, Term m, Term f, Term args);  // M:F(Args...), args copied
    void setup_fun_call(Process* p, Term fun);               // Fun(), copied
    void start_process(Process* p);                          // makes it runnable

private:
    std::unique_ptr<Namespace> root_;
    std::mutex path_mutex_;  // guards code_path_ and boot_dir_
    std::vector<std::string> code_path_;
    std::string boot_dir_;
    std::vector<std::string> otp_paths_;
    std::string otp_root_;
    std::string erts_ebin_;  // root/lib/erts-*/ebin: OTP's preloaded modules
    std::recursive_mutex load_mutex_;  // guards kept_ and detached_funs_
    std::mutex autoload_mutex_;
    std::condition_variable autoload_done_;
    std::vector<std::pair<Namespace*, Term>> autoloading_;  // modules being autoloaded
    std::shared_mutex ranges_mutex_;
    std::map<const Word*, ModuleCode*> code_ranges_;  // keyed by code start
    std::vector<std::unique_ptr<ModuleCode>> kept_;     // see retire_code
    std::vector<std::unique_ptr<FunEntry>> detached_funs_;  // see detach_funs
    std::atomic<uint64_t> pid_counter_{1};
    uint64_t pid_gap_after_ = UINT64_MAX, pid_gap_ = 0;
    std::atomic<uint64_t> unique_counter_{1};
};

}  // namespace beam

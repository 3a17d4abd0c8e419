// The dump's file, the environment variables that govern it (as erts' break.c and
// sys/unix/sys.c read them), and the order of its sections.
#include "crashdump/crash_dump.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <mutex>
#include <unistd.h>

#include "crashdump/dump_output.hpp"
#include "crashdump/dump_sections.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/atom_table.hpp"
#include "vm/fatal_error.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

struct Request {
    std::string slogan;
    Term caller = NIL;
    int scheduler = 0;
};
std::atomic<bool> requested{false};
std::atomic<bool> dumping{false};
Request request;

// erts skips the dump when a heart port is open and ERL_CRASH_DUMP_SECONDS is unset, so
// that heart restarts the node at once.
bool heart_port_open(VM& vm) {
    if (!vm.ports) return false;
    for (const std::shared_ptr<Port>& p : ports_of(vm).all_ports()) {
        std::lock_guard lock(p->lock);
        std::string_view cmd = p->name;
        cmd = cmd.substr(0, cmd.find(' '));
        if (size_t slash = cmd.rfind('/'); slash != std::string_view::npos) cmd = cmd.substr(slash + 1);
        if (!p->closed && cmd == "heart") return true;
    }
    return false;
}

// ERL_CRASH_DUMP_BYTES: a non-negative integer limits the dump (0: none is written).
uint64_t byte_limit() {
    const char* env = std::getenv("ERL_CRASH_DUMP_BYTES");
    if (!env || !*env) return UINT64_MAX;
    char* end;
    errno = 0;
    long long v = std::strtoll(env, &end, 10);
    if (errno || v < 0 || *end) return UINT64_MAX;
    return uint64_t(v);
}

void write_sections(crashdump::DumpOutput& out, VM& vm, const std::string& slogan, Term caller, int scheduler) {
    using namespace crashdump;
    std::time_t now = std::time(nullptr);
    char date[64];
    ctime_r(&now, date);  // "Fri Dec  4 19:15:21 2026\n", as erts writes it
    out.printf("=erl_crash_dump:0.5\n%s", date);
    out.printf("Slogan: %s\n", slogan.c_str());
    out.write("System version: Erlang/OTP 25 [beamvm] [64-bit]\n");  // system_info(system_version)
    out.printf("Taints: %s\n", nif_taints(vm).c_str());
    out.printf("Atoms: %zu\n", AtomTable::instance().size());
    if (scheduler > 0) out.printf("Calling Thread: scheduler:%d\n", scheduler);
    else out.write("Calling Thread: main\n");

    std::vector<DumpedProcess> procs = stop_processes(vm, caller);
    write_schedulers(out, vm, procs, scheduler);
    write_memory(out, vm);
    write_tables_summary(out, vm);
    write_process_summaries(out, vm, procs);
    if (vm.ports) write_ports(out, vm);
    write_ets(out, vm);
    // No =timer sections: erlang:send_after/start_timer timers live in scheduler/timers
    // without a per-process index to list them by.
    write_node(out, vm);
    write_modules(out, vm);
    write_process_memory(out, vm, procs);
    write_persistent_terms(out, vm);
    write_atoms(out);
    out.write("=end\n");
}

std::atomic<VM*> fatal_vm{nullptr};

void dump_on_fatal_error(const char* slogan) {
    if (VM* vm = fatal_vm.load(std::memory_order_acquire))
        write_crash_dump(*vm, slogan, NIL, Schedulers::current_index() + 1);
}

}  // namespace

void install_fatal_error_dump(VM& vm) {
    fatal_vm.store(&vm, std::memory_order_release);
    fatal_dump_hook.store(&dump_on_fatal_error, std::memory_order_release);
}

void request_crash_dump(std::string slogan, Term caller, int scheduler) {
    bool expected = false;
    if (!requested.compare_exchange_strong(expected, true)) return;
    request = {std::move(slogan), caller, scheduler};
}

void finish_requested_crash_dump(VM& vm) {
    if (!requested.load(std::memory_order_acquire)) return;
    write_crash_dump(vm, request.slogan, request.caller, request.scheduler);
    std::fflush(nullptr);
    _exit(1);  // erts ends with _exit(1) after a dump: no further clean-up
}

void write_crash_dump(VM& vm, const std::string& slogan, Term caller, int scheduler) {
    bool expected = false;
    if (!dumping.compare_exchange_strong(expected, true)) return;  // one dump per OS process
    // ERL_CRASH_DUMP_SECONDS: unset means no time limit (but no dump with heart), 0 means no
    // dump, N > 0 means SIGALRM ends the OS process after N seconds, N < 0 no limit.
    const char* secs_env = std::getenv("ERL_CRASH_DUMP_SECONDS");
    int secs = secs_env ? std::atoi(secs_env) : -1;
    if (secs == 0) return;
    if (!secs_env && heart_port_open(vm)) return;
    if (secs > 0) {
        std::signal(SIGALRM, SIG_DFL);
        alarm(unsigned(secs));
    }
    if (const char* nice_env = std::getenv("ERL_CRASH_DUMP_NICE")) {
        int n = std::atoi(nice_env);
        (void)!nice(n > 39 ? 39 : n);
    }
    uint64_t limit = byte_limit();
    if (limit == 0) return;
    const char* name_env = std::getenv("ERL_CRASH_DUMP");
    std::string name = name_env && *name_env ? name_env : "erl_crash.dump";
    // erts writes its stderr lines with \r\n line ends.
    std::fprintf(stderr, "\r\nCrash dump is being written to: %s...", name.c_str());
    std::fflush(stderr);
    int fd = open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0640);
    if (fd < 0) return;  // as erts: no dump, no "done"
    std::FILE* f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return;
    }
    static char buffer[1 << 16];
    std::setvbuf(f, buffer, _IOFBF, sizeof buffer);
    crashdump::DumpOutput out(f, limit);
    write_sections(out, vm, slogan, caller, scheduler);
    std::fclose(f);
    if (out.cut()) return;  // erts exits from its limited writer, before "done"
    std::fprintf(stderr, "done\r\n");
}

}  // namespace beam

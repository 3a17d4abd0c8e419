// erl's emulator flags, one table. Facts from OTP 25's erl manual (erts/doc/src/erl_cmd.xml),
// its launcher (erlexec, which knows which flags take a separate value) and its emulator
// (erl_init.c, which reads a value joined to the flag name or, when nothing is joined, the
// next argument, and says what is wrong with a bad one before its usage text, exit status 1).
#include "tools/emu_flags.hpp"

#include <langinfo.h>

#include <algorithm>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include "bifs/bif_util.hpp"
#include "scheduler/busy_wait.hpp"
#include "vm/atom_table.hpp"
#include "vm/otp_version.hpp"
#include "vm/system_flags.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// What a flag's value is, and what a bad one gets: an error message, or empty when fine.
using Take = std::string (*)(const std::string& value, EmuFlags& out);

enum class Value {
    None,      // +r, +V: nothing follows
    Required,  // joined (+A1, +sbtu) or the next argument (+A 1, +sbt u)
    BoolNext,  // +c: optionally followed by true or false
    BreakNext, // +B: optionally followed by c, d or i (joined or next)
};

enum class Status { Honoured, Ignored };

struct EmuFlag {
    const char* name;  // after '+'; the longest name that starts the argument wins
    Value value;
    Status status;
    Take take;         // null: any value is accepted
};

// erts' integer parsing: atoi-style (leading digits, 0 when none).
long leading_int(const std::string& s) { return std::strtol(s.c_str(), nullptr, 10); }

bool strict_long(const std::string& s, long* out) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(s.c_str(), &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

std::string one_of(const std::string& v, std::initializer_list<const char*> ok, const std::string& message) {
    for (const char* o : ok)
        if (v == o) return {};
    return message + v;
}

// erts rounds its process and port tables up to a power of two.
int64_t table_size(long n) {
    int64_t size = 1;
    while (size < n) size <<= 1;
    return size;
}

std::string take_processes(const std::string& v, EmuFlags& f) {
    if (v == "legacy") return {};
    long n;
    errno = 0;
    n = std::strtol(v.c_str(), nullptr, 10);
    if (errno || n < 1024 || n > 134217727) return "bad number of processes " + v;
    f.options.process_limit = table_size(n);
    return {};
}

std::string take_ports(const std::string& v, EmuFlags& f) {
    if (v == "legacy") return {};
    errno = 0;
    long n = std::strtol(v.c_str(), nullptr, 10);
    if (errno || n < 1024 || n > 134217727) return "bad number of ports " + v;
    f.options.port_limit = table_size(n);
    return {};
}

std::string take_atoms(const std::string& v, EmuFlags& f) {
    errno = 0;
    long n = std::strtol(v.c_str(), nullptr, 10);
    if (errno || n < 8192 || n > 2147483647L) return "bad atom table size " + v;
    // beamvm's atom table holds MAX_ATOMS at most: a larger +t cannot raise it (docs/limits.md).
    f.options.atom_limit = std::min<long>(n, long(MAX_ATOMS));
    return {};
}

std::string take_async_threads(const std::string& v, EmuFlags& f) {
    long n = leading_int(v);
    if (n < 0 || n > 1024) return "bad number of async threads " + v;
    f.options.thread_pool_size = std::max(1L, n);
    return {};
}

// "N", "N:M" or ":M" (erts' +S and +SDcpu); false when none of these.
bool counts(const std::string& v, int* a, int* b, bool* has_a, bool* has_b) {
    int x, y;
    *has_a = *has_b = false;
    if (std::sscanf(v.c_str(), "%d:%d", &x, &y) == 2) {
        *a = x, *b = y, *has_a = *has_b = true;
        return true;
    }
    if (std::sscanf(v.c_str(), "%d", &x) == 1) {
        *a = x, *has_a = true;
        return true;
    }
    if (std::sscanf(v.c_str(), ":%d", &y) == 1) {
        *b = y, *has_b = true;
        return true;
    }
    return false;
}

std::string take_schedulers(const std::string& v, EmuFlags& f) {
    if (!counts(v, &f.schedulers, &f.schedulers_online, &f.schedulers_given, &f.online_given))
        return "bad amount of schedulers " + v;
    return {};
}

std::string take_scheduler_pct(const std::string& v, EmuFlags& f) {
    int a = 100, b = 100;
    bool ha, hb;
    if (!counts(v, &a, &b, &ha, &hb) || a <= 0 || b <= 0) return "bad schedulers percentage specifier " + v;
    f.schedulers_pct = ha ? a : 100;
    f.online_pct = hb ? b : 100;
    return {};
}

std::string take_dirty_cpu(const std::string& v, EmuFlags& f) {
    if (!counts(v, &f.dirty_cpu, &f.dirty_cpu_online, &f.dirty_cpu_given, &f.dirty_cpu_online_given))
        return "bad amount of dirty CPU schedulers " + v;
    return {};
}

std::string take_dirty_cpu_pct(const std::string& v, EmuFlags& f) {
    int a = 100, b = 100;
    bool ha, hb;
    if (!counts(v, &a, &b, &ha, &hb) || a <= 0 || b <= 0) return "bad dirty CPU schedulers percentage specifier " + v;
    f.dirty_cpu_pct = ha ? a : 100;
    f.dirty_cpu_online_pct = hb ? b : 100;
    return {};
}

std::string take_dirty_io(const std::string& v, EmuFlags& f) {
    long n = leading_int(v);
    if (n < 1 || n > 1024) return "bad number of dirty I/O schedulers " + v;
    f.dirty_io = int(n);
    return {};
}

std::string take_warning_map(const std::string& v, EmuFlags& f) {
    switch (v.empty() ? 0 : v[0]) {
    case 'i': f.warning_map = "info"; return {};
    case 'e': f.warning_map = "error"; return {};
    case 'w': f.warning_map = "warning"; return {};
    default: return "unrecognized warning_map option " + v;
    }
}

std::string take_min_heap(const std::string& v, EmuFlags& f) {
    if ((f.min_heap = leading_int(v)) <= 0) return "bad heap size " + v;
    return {};
}

std::string take_min_bin_vheap(const std::string& v, EmuFlags& f) {
    if ((f.min_bin_vheap = leading_int(v)) <= 0) return "bad heap size " + v;
    return {};
}

std::string take_max_heap(const std::string& v, EmuFlags& f) {
    long n = std::strtol(v.c_str(), nullptr, 10);
    if (n < 0 || n > (1L << 59) - 1) return "bad max heap size " + v;
    f.max_heap = n;
    return {};
}

std::string take_bool(const std::string& v, std::optional<bool>* out, const char* message) {
    if (v != "true" && v != "false") return message + v;
    *out = v == "true";
    return {};
}

std::string take_max_heap_kill(const std::string& v, EmuFlags& f) {
    return take_bool(v, &f.max_heap_kill, "bad max heap kill ");
}

std::string take_max_heap_error_logger(const std::string& v, EmuFlags& f) {
    return take_bool(v, &f.max_heap_error_logger, "bad max heap error logger ");
}

std::string take_pd_size(const std::string& v, EmuFlags&) {
    if (leading_int(v) <= 0) return "bad initial process dictionary size " + v;
    return {};
}

std::string take_message_queue_data(const std::string& v, EmuFlags&) {
    return one_of(v, {"on_heap", "off_heap"}, "Invalid message_queue_data flag: ");
}

std::string take_filename_encoding(const std::string& v, EmuFlags& f) {
    char kind = v.empty() ? 0 : v[0];
    if (kind != 'u' && kind != 'l' && kind != 'a')
        return "bad filename encoding " + v + ", can be (l,u or a, optionally followed by w, i or e)";
    // +fnl takes no warning letter (erts ignores what follows l).
    if (kind != 'l' && v.size() > 1 && (v.size() > 2 || !std::strchr("wie", v[1])))
        return "bad type of warnings for wrongly coded filename: " + v.substr(1);
    f.filename_encoding = kind;
    f.options.filename_warning = kind != 'l' && v.size() > 1 ? v[1] : 'w';
    return {};
}

std::string take_printable(const std::string& v, EmuFlags& f) {
    if (v != "unicode" && v != "latin1") return "bad range of printable characters: " + v;
    f.options.printable_unicode = v == "unicode";
    return {};
}

std::string take_compat_rel(const std::string& v, EmuFlags& f) {
    long n = leading_int(v);
    if (n < 23 || n > 25) return "bad compatibility release number " + v;
    f.options.compat_rel = n;
    return {};
}

std::string take_time_warp(const std::string& v, EmuFlags& f) {
    if (v != "no_time_warp" && v != "single_time_warp" && v != "multi_time_warp")
        return "Invalid time warp mode: " + v;
    f.options.time_warp_mode = v;
    return {};
}

std::string take_timing_level(const std::string& v, EmuFlags& f) {
    long n;
    if (!strict_long(v, &n)) n = leading_int(v);
    if (n < 0 || n > 9) return "bad modified timing level " + v;
    f.options.modified_timing_level = n;
    return {};
}

std::string take_kernel_poll(const std::string& v, EmuFlags&) {
    // erts 25 always uses kernel poll; +K is read and dropped (true or false alike).
    return one_of(v, {"true", "false"}, "bad kernel poll flag ");
}

std::string take_dist_buf(const std::string& v, EmuFlags& f) {
    long n = leading_int(v);
    if (n < 1 || n > 2097151) return "Invalid dbbl limit: " + std::to_string(n);
    f.options.dist_buf_busy_limit = n * 1024;
    return {};
}

std::string take_port_parallelism(const std::string& v, EmuFlags& f) {
    if (v != "true" && v != "false") return "bad port parallelism scheduling hint " + v;
    f.options.port_parallelism = v == "true";
    return {};
}

// +sbt's letters and the name system_info(scheduler_bind_type) gives each.
std::string take_bind_type(const std::string& v, EmuFlags& f) {
    static const std::pair<const char*, const char*> types[] = {
        {"u", "unbound"},
        {"ns", "no_spread"},
        {"ts", "thread_spread"},
        {"ps", "processor_spread"},
        {"s", "spread"},
        {"nnts", "no_node_thread_spread"},
        {"nnps", "no_node_processor_spread"},
        {"tnnps", "thread_no_node_processor_spread"},
        {"db", "thread_no_node_processor_spread"},
    };
    for (auto [letters, name] : types) {
        if (v == letters) {
            f.options.scheduler_bind_type = name;
            return {};
        }
    }
    return "setting scheduler bind type '" + v + "' failed: invalid type";
}

std::string take_busy_wait(const std::string& v, EmuFlags&) {
    return one_of(v, {"none", "very_short", "short", "medium", "long", "very_long"},
                  "bad scheduler busy wait threshold: ");
}

// +sbwt for the normal schedulers (the dirty ones' +sbwtdcpu/+sbwtdio are checked only).
std::string take_sched_busy_wait(const std::string& v, EmuFlags& f) {
    static const char* const levels[] = {"none", "very_short", "short", "medium", "long", "very_long"};
    for (int i = 0; i < 6; ++i)
        if (v == levels[i]) {
            f.busy_wait = i;
            return {};
        }
    return take_busy_wait(v, f);
}

std::string take_wakeup(const std::string& v, EmuFlags&) {
    return one_of(v, {"very_low", "low", "medium", "high", "very_high"}, "scheduler wakeup threshold: ");
}

// +swt: erts' ERTS_WAKEUP_OTHER_LIMIT_* (CONTEXT_REDS = 4,000 reductions).
std::string take_sched_wakeup(const std::string& v, EmuFlags& f) {
    static const std::pair<const char*, int64_t> limits[] = {
        {"very_low", 4'000 / 10}, {"low", 4'000}, {"medium", 10 * 4'000}, {"high", 50 * 4'000}, {"very_high", 200 * 4'000}};
    for (auto [name, limit] : limits)
        if (v == name) {
            f.options.wakeup_other_limit = limit;
            return {};
        }
    return take_wakeup(v, f);
}

std::string take_ets_max(const std::string& v, EmuFlags&) {
    if (leading_int(v) < 0) return "bad maximum number of ets tables " + v;
    return {};  // OTP 25 keeps system_info(ets_limit) at its default whatever +e says
}

std::string take_time_correction(const std::string& v, EmuFlags& f) {
    if (!v.empty() && v != "true" && v != "false") return "Invalid time correnction value: " + v;
    f.options.time_correction = v == "true";
    return {};
}

std::string take_print_version(const std::string&, EmuFlags& f) {
    f.print_version = true;
    return {};
}

std::string take_ets_moves(const std::string&, EmuFlags& f) {
    f.options.ets_realloc_moves = true;
    return {};
}

std::string take_ets_compress(const std::string&, EmuFlags& f) {
    f.options.ets_always_compress = true;
    return {};
}

// +B, +Bc, +Bd, +Bi (or +B c ...): what ^C does (io/tty/break_menu.hpp). Bare +B is +Bd.
std::string take_break(const std::string& v, EmuFlags& f) {
    f.break_handling = v.empty() ? 'd' : v[0];
    return {};
}

std::string take_verbose(const std::string&, EmuFlags&) {
    // erts' chatty mode exists in its debug build only; its release build says so and goes on.
    std::fputs("warning: -v (only in debug compiled code)\r\n", stderr);
    return {};
}

using enum Value;
using enum Status;

// Every flag of erl's manual, with the undocumented ones erlexec passes on that tools use.
// Honoured: beamvm does what erl does, or reports the value where erl does (system_info).
// Ignored: accepted, checked where erl checks, with no effect (docs/command_line.md: why).
constexpr EmuFlag FLAGS[] = {
    {"a", Required, Ignored, nullptr},             // async thread stack size: no async pool
    {"A", Required, Honoured, take_async_threads}, // thread_pool_size
    {"B", BreakNext, Honoured, take_break},        // break handling (docs/shell.md)
    {"c", BoolNext, Honoured, take_time_correction},
    {"C", Required, Honoured, take_time_warp},     // reported; beamvm's clock never warps
    {"d", None, Ignored, nullptr},                 // crash dumps: see docs
    {"dcg", Required, Ignored, nullptr},           // decentralized counter groups
    {"e", Required, Honoured, take_ets_max},       // checked; OTP 25 ignores it too
    {"ec", None, Honoured, take_ets_compress},     // reported (system_info)
    {"fn", Required, Honoured, take_filename_encoding},
    {"h", Required, Honoured, take_min_heap},      // +h Size: old spelling of +hms
    {"hms", Required, Honoured, take_min_heap},
    {"hmbs", Required, Honoured, take_min_bin_vheap},
    {"hmax", Required, Honoured, take_max_heap},
    {"hmaxk", Required, Honoured, take_max_heap_kill},
    {"hmaxel", Required, Honoured, take_max_heap_error_logger},
    {"hpds", Required, Ignored, take_pd_size},     // beamvm's dictionary grows as needed
    {"hmqd", Required, Ignored, take_message_queue_data},
    {"i", Required, Ignored, nullptr},             // boot module: beamvm always boots init
    {"IOt", Required, Ignored, nullptr},           // poll threads: beamvm has its own I/O
    {"IOp", Required, Ignored, nullptr},
    {"IOPt", Required, Ignored, nullptr},
    {"IOPp", Required, Ignored, nullptr},
    {"IOs", Required, Ignored, nullptr},
    {"JDdump", Required, Ignored, nullptr},        // JIT: beamvm is an interpreter
    {"JPperf", Required, Ignored, nullptr},
    {"K", Required, Ignored, take_kernel_poll},
    {"L", None, Ignored, nullptr},                 // no file and line info: beamvm keeps it
    {"M", Required, Ignored, nullptr},             // allocators: see match_allocator_flag
    {"n", Required, Ignored, nullptr},             // port signal scheduling (deprecated)
    {"P", Required, Honoured, take_processes},
    {"pc", Required, Honoured, take_printable},
    {"Q", Required, Honoured, take_ports},
    {"R", Required, Honoured, take_compat_rel},
    {"r", None, Honoured, take_ets_moves},         // reported (system_info)
    {"rg", Required, Ignored, nullptr},            // ETS reader groups
    {"S", Required, Honoured, take_schedulers},
    {"SP", Required, Honoured, take_scheduler_pct},
    {"SDcpu", Required, Honoured, take_dirty_cpu},
    {"SDPcpu", Required, Honoured, take_dirty_cpu_pct},
    {"SDio", Required, Honoured, take_dirty_io},
    {"sbt", Required, Honoured, take_bind_type},   // reported; threads are not bound
    {"sbwt", Required, Honoured, take_sched_busy_wait},
    {"sbwtdcpu", Required, Ignored, take_busy_wait},
    {"sbwtdio", Required, Ignored, take_busy_wait},
    {"scl", Required, Ignored, nullptr},
    {"sct", Required, Ignored, nullptr},
    {"secio", Required, Ignored, nullptr},
    {"sfwi", Required, Ignored, nullptr},
    {"spp", Required, Honoured, take_port_parallelism},
    {"srct", None, Ignored, nullptr},
    {"sss", Required, Ignored, nullptr},
    {"sssdcpu", Required, Ignored, nullptr},
    {"sssdio", Required, Ignored, nullptr},
    {"stbt", Required, Honoured, take_bind_type},  // as +sbt where binding is supported
    {"sub", Required, Ignored, nullptr},
    {"swct", Required, Ignored, nullptr},
    {"sws", Required, Ignored, nullptr},
    {"swt", Required, Honoured, take_sched_wakeup},
    {"swtdcpu", Required, Ignored, take_wakeup},
    {"swtdio", Required, Ignored, take_wakeup},
    {"t", Required, Honoured, take_atoms},
    {"T", Required, Honoured, take_timing_level},  // reported; no modified timing
    {"v", None, Ignored, take_verbose},
    {"V", None, Honoured, take_print_version},
    {"W", Required, Honoured, take_warning_map},
    {"zdbbl", Required, Honoured, take_dist_buf},  // reported (system_info)
    {"zdntgc", Required, Ignored, nullptr},
    {"zebwt", Required, Ignored, nullptr},
    {"zosrl", Required, Ignored, nullptr},
};

// The message erts gives for an argument of a family none of whose members matched.
std::string family_error(const std::string& arg, const std::string& program) {
    std::string dash = "-" + arg.substr(1);
    switch (arg.size() > 1 ? arg[1] : 0) {
    case 's': return "bad scheduling option " + dash;
    case 'z': return "bad -z option " + dash;
    case 'J': return "invalid JIT option " + dash;
    default: return program + " unknown flag " + dash;
    }
}

// +M<A><switch> (alloc_util allocator A) and +M<switch>: erts_alloc's names (erlexec's lists).
bool match_allocator_flag(const std::string& name, size_t* name_len) {
    static const char* per_allocator[] = {"asbcst", "as", "atags", "acul", "acnl", "acfml", "acful", "cp",
                                          "e", "t", "lmbcs", "mbcgs", "mbsd", "mmbcs", "mmmbc", "mmsbc",
                                          "msbclt", "ramv", "rmbcmt", "rsbcmt", "rsbcst", "sbct", "smbcs"};
    static const char* others[] = {"ea", "ummc", "uycs", "usac", "im", "is", "lpm", "Mamcbf", "Mrmcbf",
                                   "Mmcs", "Mscs", "Mscrfsd", "Msco", "Mscrpm", "Ye", "Ym", "Ytp", "Ytt",
                                   "Iscs", "Xscs", "dai"};
    size_t best = 0;
    auto consider = [&](const std::string& full) {
        if (name.starts_with(full) && full.size() > best) best = full.size();
    };
    if (name.size() >= 2 && std::strchr("uBIDEFHLRSTZ", name[1]))
        for (const char* s : per_allocator) consider(std::string("M") + name[1] + s);
    for (const char* s : others) consider(std::string("M") + s);
    *name_len = best;
    return best > 0;
}

}  // namespace

std::string parse_emu_flag(const std::vector<std::string>& args, size_t& i, EmuFlags& out,
                           const std::string& program) {
    const std::string& arg = args[i];
    std::string name = arg.substr(1);
    const EmuFlag* flag = nullptr;
    size_t len = 0;
    for (const EmuFlag& f : FLAGS) {
        size_t n = std::strlen(f.name);
        if (name.compare(0, n, f.name) == 0 && (!flag || n > len)) flag = &f, len = n;
    }
    if (flag && std::strcmp(flag->name, "M") == 0) {
        if (!match_allocator_flag(name, &len)) {
            bool per_allocator = name.size() >= 2 && std::strchr("uBIDEFHLRSTZ", name[1]);
            return "bad \"" + name.substr(0, per_allocator ? 2 : 1) + "\" parameter";
        }
    }
    // A flag of a family with more members (+s..., +z..., +J...) matched by its letter only.
    if (!flag || (len == 1 && std::strchr("szJ", name[0]) && std::strcmp(flag->name, "S") != 0))
        return family_error(arg, program);
    std::string joined = name.substr(len);
    std::string value;
    switch (flag->value) {
    case None:
        break;  // erts reads nothing after +d, +r, +V, +v...: what is joined is ignored
    case Required:
        if (!joined.empty()) {
            value = joined;
        } else if (i + 1 < args.size()) {
            value = args[++i];
        } else {
            return "Missing argument(s) for '" + arg + "'.";
        }
        break;
    case BoolNext:
        value = joined;
        if (joined.empty() && i + 1 < args.size() && (args[i + 1] == "true" || args[i + 1] == "false"))
            value = args[++i];
        break;
    case BreakNext:
        if (!joined.empty() && joined != "c" && joined != "d" && joined != "i")
            return "Missing argument(s) for '" + arg + "'.";  // erlexec's usage for +Bx
        value = joined;
        if (joined.empty() && i + 1 < args.size() && args[i + 1].size() == 1 &&
            std::strchr("cdi", args[i + 1][0]))
            value = args[++i];
        break;
    }
    return flag->take ? flag->take(value, out) : std::string();
}

std::string resolve_schedulers(const EmuFlags& f, SchedulerCounts* out) {
    int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    int tot = cores, onln = cores;
    if (f.schedulers_given) tot = f.schedulers > 0 ? f.schedulers : cores + f.schedulers;
    if (f.online_given) onln = f.schedulers_online > 0 ? f.schedulers_online : cores + f.schedulers_online;
    else if (f.schedulers_given) onln = std::min(tot, cores);
    if (tot < 1 || tot > 1024) return "bad amount of schedulers " + std::to_string(f.schedulers);
    if (onln < 1 || onln > tot)
        return "bad amount of schedulers online " + std::to_string(onln) + " (total amount of schedulers " +
               std::to_string(tot) + ")";
    tot = std::max(1, tot * f.schedulers_pct / 100);
    onln = std::max(1, onln * f.online_pct / 100);
    if (onln > tot) onln = tot;
    // Dirty CPU schedulers: one per core unless told (a count <= 0 counts from the cores),
    // never more than the schedulers, nor more online than schedulers online.
    int dcpu = f.dirty_cpu_given ? (f.dirty_cpu > 0 ? f.dirty_cpu : cores + f.dirty_cpu) : cores;
    int dcpu_onln = f.dirty_cpu_online_given
                        ? (f.dirty_cpu_online > 0 ? f.dirty_cpu_online : cores + f.dirty_cpu_online)
                        : std::min(dcpu, cores);
    if (dcpu < 1 || dcpu > 1024) return "bad amount of dirty CPU schedulers " + std::to_string(f.dirty_cpu);
    if (dcpu_onln < 1 || dcpu_onln > dcpu)
        return "bad amount of dirty CPU schedulers online " + std::to_string(dcpu_onln) +
               " (total amount of dirty CPU schedulers " + std::to_string(dcpu) + ")";
    dcpu = dcpu * f.dirty_cpu_pct / 100;
    dcpu_onln = dcpu_onln * f.dirty_cpu_online_pct / 100;
    dcpu = std::clamp(dcpu, 1, tot);
    dcpu_onln = std::clamp(dcpu_onln, 1, std::min(dcpu, onln));
    *out = {tot, onln, dcpu, dcpu_onln, f.dirty_io ? f.dirty_io : 10};
    return {};
}

void apply_emu_flags(const EmuFlags& f, VM& vm) {
    vm.emu_options = f.options;
    AtomTable::instance().set_limit(size_t(f.options.atom_limit));  // +t: one table per OS process
    bool utf8 = f.filename_encoding == 'u';
    if (f.filename_encoding == 'a') {
        // erts' +fna: UTF-8 when the locale's character set is.
        const char* old = std::setlocale(LC_CTYPE, nullptr);
        std::string saved = old ? old : "C";
        if (std::setlocale(LC_CTYPE, "")) utf8 = std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
        std::setlocale(LC_CTYPE, saved.c_str());
    }
    vm.emu_options.filename_utf8 = utf8;
    if (!f.warning_map.empty()) vm.warning_map = atom(f.warning_map);
    if (f.busy_wait >= 0) set_scheduler_busy_wait(vm, static_cast<BusyWait>(f.busy_wait));
    SystemFlags& sf = system_flags(vm);
    if (f.min_heap) sf.min_heap_size = gc::next_heap_size(size_t(f.min_heap));
    if (f.min_bin_vheap) sf.min_bin_vheap_size = gc::next_heap_size(size_t(f.min_bin_vheap));
    if (f.max_heap >= 0 || f.max_heap_kill || f.max_heap_error_logger) {
        MaxHeapSize m = sf.max_heap_size();
        if (f.max_heap >= 0) m.size = size_t(f.max_heap);
        if (f.max_heap_kill) m.kill = *f.max_heap_kill;
        if (f.max_heap_error_logger) m.error_logger = *f.max_heap_error_logger;
        sf.exchange_max_heap_size(m);
    }
}

void emu_flag_usage_exit(const std::string& message) {
    // erts' early messages end in "\r\n" (its stderr printing, ready for a raw terminal): the
    // same bytes here.
    std::fprintf(stderr, "%s\r\nUsage: beamvm [flags] [ -- [init_args] ] (see beamvm --help and docs/command_line.md)\r\n",
                 message.c_str());
    std::exit(1);
}

std::string emulator_version_line() {
    return std::string("Erlang (SMP,ASYNC_THREADS) (BEAM) emulator version ") + ERTS_VERSION + " [beamvm, OTP " +
           OTP_RELEASE + "]";
}

}  // namespace beam

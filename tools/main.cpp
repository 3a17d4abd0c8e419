// The beamvm command line: erl's flags for running code, and escript-style `beamvm m.beam`.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bifs/bif_util.hpp"
#include "io/tty/break_menu.hpp"
#include "scheduler/os_signals.hpp"
#include "scheduler/ports.hpp"
#include "vm/code_watch.hpp"
#include "tools/allocator_setup.hpp"
#include "tools/emu_flags.hpp"
#include "tools/erl_argv.hpp"
#include "tools/escript_args.hpp"
#include "tools/node_start.hpp"
#include "tools/otp_boot.hpp"
#include "vm/runner.hpp"
#include "vm/vm.hpp"

using namespace beam;
namespace fs = std::filesystem;

namespace {

const char* HELP = R"(usage: beamvm [flags] [-s Mod [Func [Arg...]]] [-run Mod [Func [Arg...]]] [-eval Expr] [-extra Arg...]
       beamvm script.escript [Arg...]
       beamvm path/to/mod.beam [Arg...]

Runs .beam files compiled by OTP 25's erlc. As erl, beamvm boots OTP: OTP's own init runs the
boot script (kernel, stdlib), then the -s, -run and -eval commands in order.

  -noshell, -noinput  as erl's
  -pa Dir..., -pz Dir...
                      add directories to the front / end of the code path
  -s Mod [Func [Arg...]]
                      call Mod:Func([Arg...]) with the arguments as atoms, or Mod:Func()
  -run Mod [Func [Arg...]]
                      as -s, but the arguments are strings
  -eval Expr          evaluate the Erlang expressions Expr
  -extra Arg...       plain arguments (init:get_plain_arguments/0)
  -boot File, -config File, -App Key Value, -Flag Value...
                      read by OTP's init and application_controller, as on erl
  -env Var Value      set an environment variable
  -s erlang halt, -s init stop
                      end the VM (as on erl)
  -sname Name, -name Name
                      start a distributed node, as erl (OTP's net_kernel, auth and
                      erl_distribution read these and the flags below); epmd is started
                      with `epmd -daemon` from the OTP installation's erts bin directory
                      first, as erlexec does (not with -no_epmd or -start_epmd false;
                      -epmd Cmd runs Cmd instead); ERL_EPMD_PORT is passed on as -epmd_port
  -setcookie C, -hidden, -connect_all false, -proto_dist P, -epmd_module M, -no_epmd,
  -kernel inet_dist_listen_min N ...
                      passed to init as erl passes them (~/.erlang.cookie: OTP's auth)
  -detached           as erl: the command returns at once and the node runs on in the
                      background (its own session, stdin/stdout/stderr on /dev/null); implies
                      -noshell -noinput. init's progname is this beamvm's path, so OTP's peer
                      (and slave, test_server) start beamvm nodes by default
  -heart              as erl: kernel's heart runs OTP's heart program (HEART_COMMAND)
  -remsh Node         a shell on Node instead of this one (OTP's user_drv), as erl
  -version            the emulator's version line (beamvm's, with the OTP release it emulates)
  -emu_args, -emu_args_exit, -compile File..., -make, -args_file File, -boot_var, -mode,
  -init_debug         as erl; ERL_AFLAGS, ERL_FLAGS and ERL_ZFLAGS are read as erlexec reads them
  +Flag [Value]       erl's emulator flags, in erl's syntax (+S N:M, +SDcpu, +SDio, +P, +hms,
                      +hmax, +W, +fnu, +pc, +sbtu, +A1, +M..., ...): each is honoured, reported
                      by system_info, or accepted and ignored (docs/command_line.md says which);
                      +B[c|d|i]: what ^C does (docs/shell.md)
  --watch[=force]     reload a loaded module when its .beam file in a -pa directory changes
                      (inotify): the new version is loaded if the previous old code can be
                      soft-purged, else the processes still running it are reported on stderr
                      and the current version stays; --watch=force purges instead
  --port-grace MS     when a port closes or its owner dies, its OS process gets MS
                      milliseconds after its stdin is closed, then SIGTERM and MS more, then
                      SIGKILL (default 5000; open_port's {kill_timeout, Ms} per port)
  --help              this text

  beamvm script.escript Args...
                      runs the escript as OTP's escript launcher does (source, precompiled
                      or archive; the %%! line's flags; exit status as escript's)
  beamvm path/to/m.beam Args...
                      quick start-up: loads that file and calls m:main(Args) with the
                      arguments as strings; exits with halt's status, or 0 when main returns
)";

struct Command {
    std::string module;
    std::string function;
    std::vector<std::string> args;
    bool has_args = false;
    bool strings = false;  // -run
    bool eval = false;     // -eval: args[0] is the text
};

std::string exe_path() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    buf[n] = 0;
    return buf;
}

std::string exe_dir() {
    std::string exe = exe_path();
    return exe.empty() ? "." : fs::path(exe).parent_path().string();
}

std::string find_otp_root() {
    if (const char* env = std::getenv("BEAMVM_OTP_ROOT")) return env;
    if (const char* path = std::getenv("PATH")) {
        std::string p = path;
        size_t start = 0;
        while (start <= p.size()) {
            size_t end = p.find(':', start);
            if (end == std::string::npos) end = p.size();
            fs::path erl = fs::path(p.substr(start, end - start)) / "erl";
            std::error_code ec;
            if (fs::exists(erl, ec)) {
                // /usr/lib/erlang/bin/erl; under erl (os:cmd, open_port, peer) PATH starts
                // with erts-V/bin, whose erl is the same script one level deeper.
                fs::path root = fs::canonical(erl, ec).parent_path().parent_path();
                if (!ec && root.filename().string().starts_with("erts-")) root = root.parent_path();
                if (!ec && fs::exists(root / "lib", ec) && fs::exists(root / "releases", ec))
                    return root.string();
            }
            start = end + 1;
        }
    }
    return "/usr/lib/erlang";
}

struct BootArgs {
    std::vector<Command>* commands;
    bool script;
};

Term string_list(TermAllocator& a, const std::vector<std::string>& v, bool as_atoms) {
    std::vector<Term> items;
    for (const std::string& s : v) items.push_back(as_atoms ? atom(s) : make_string(a, s));
    return make_list_from(a, items.data(), items.size());
}

Term boot_args(TermAllocator& a, void* ctx) {
    auto* b = static_cast<BootArgs*>(ctx);
    std::vector<Term> cmds;
    for (const Command& c : *b->commands) {
        if (c.eval) {
            cmds.push_back(make_tuple(a, {atom("eval"), make_string(a, c.args[0])}));
            continue;
        }
        Term args = c.has_args ? string_list(a, c.args, !c.strings) : atom("none");
        cmds.push_back(make_tuple(a, {atom(c.module), atom(c.function), args}));
    }
    Term mode = b->script ? atom("script") : atom("noshell");
    Term items[3] = {make_list_from(a, cmds.data(), cmds.size()), mode, NIL};
    return make_list_from(a, items, 3);
}

bool is_flag(const char* a) { return a[0] == '-' || a[0] == '+'; }

}  // namespace

int main(int original_argc, char** original_argv) {
    setup_allocator();
    // beamvm script.escript Args...: run as OTP's escript launcher runs erl.
    std::vector<std::string> words(original_argv + 1, original_argv + original_argc);
    if (auto cmd = escript_command_line(words)) {
        words = std::move(*cmd);
    } else if (!words.empty() && !is_flag(words[0].c_str()) && !words[0].ends_with(".beam")) {
        // erl would take it as a plain argument and start a shell; `beamvm word` means a script.
        std::fprintf(stderr, "beamvm: cannot run '%s': no such file (see beamvm --help)\n", words[0].c_str());
        return 2;
    }
    // As erlexec: ERL_AFLAGS, ERL_FLAGS, ERL_ZFLAGS and -args_file merged in first.
    MergedArgv merged = merge_erl_argv(words);
    if (merged.error) erl_launcher_usage_exit(merged.error->message);
    std::vector<std::string> storage;
    storage.push_back(original_argv[0]);
    storage.insert(storage.end(), merged.args.begin(), merged.args.end());
    std::vector<char*> argv_ptrs;
    for (std::string& w : storage) argv_ptrs.push_back(w.data());
    argv_ptrs.push_back(nullptr);
    int argc = int(storage.size());
    char** argv = argv_ptrs.data();
    // erlexec detaches before the emulator starts; beamvm before the VM has any thread.
    if (wants_detached(argc, argv)) detach_from_terminal();
    VM vm;
    vm.exit_process_when_done = true;
    dump_on_sigusr1(&vm);  // erl's default: kill -USR1 writes erl_crash.dump
    std::vector<std::string> pa, pz;
    std::vector<Command> commands;
    NodeStartFlags node_flags;
    std::vector<std::string> init_args;  // what OTP's init gets, in order (boot mode)
    std::string otp_root;
    std::string script_path;
    bool script = false, no_boot = false;
    bool watch = false, watch_force = false;
    EmuFlags emu_flags;
    bool show_emu_args = false, emu_args_exit = false;
    vm.emu_args.assign(argv, argv + argc);

    // Copies argv[i] and its values (the arguments up to the next flag) to init's arguments.
    auto pass_flag = [&](int& i) {
        init_args.push_back(argv[i]);
        while (i + 1 < argc && !is_flag(argv[i + 1])) init_args.push_back(argv[++i]);
    };

    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-help" || a == "-h") {
            std::fputs(HELP, stdout);
            return 0;
        } else if (a == "--no-boot") {
            no_boot = true;
        } else if (a == "-extra") {
            for (; i < argc; ++i) init_args.push_back(argv[i]);
        } else if (a[0] == '+') {
            size_t at = size_t(i);
            std::string err = parse_emu_flag(storage, at, emu_flags, exe_path());
            if (!err.empty()) emu_flag_usage_exit(err);
            i = int(at);
        } else if (a == "-version") {
            // erlexec turns it into the emulator's -V: the version line, then exit 0.
            emu_flags.print_version = true;
        } else if (a == "-emu_args" || a == "-emu_args_exit") {
            (a == "-emu_args" ? show_emu_args : emu_args_exit) = true;
        } else if (a == "-compile" || a == "-make") {
            // erlexec's shorthands: c:lc_batch on the files that follow, make:all_or_nothing.
            init_args.insert(init_args.end(), {"-noshell", "-noinput", "-s", a == "-make" ? "make" : "c",
                                               a == "-make" ? "all_or_nothing" : "lc_batch"});
            if (a == "-make") {
                init_args.insert(init_args.end(), {"-s", "erlang", "halt"});
                break;
            }
        } else if (a == "-detached") {
            // Detached before the VM was made (above); init sees what erlexec gives it instead.
            init_args.push_back("-noshell");
            init_args.push_back("-noinput");
        } else if (a == "-epmd") {
            std::string err = note_node_start_flag(node_flags, argc, argv, i);
            if (!err.empty()) {
                std::fprintf(stderr, "beamvm: %s\n", err.c_str());
                return 2;
            }
            ++i;  // erlexec's own flag: init does not see it
        } else if (a == "-sname" || a == "-name" || a == "-no_epmd" || a == "-proto_dist" || a == "-start_epmd") {
            // Distribution flags: erlexec notes them (epmd) and init gets them all, for
            // erl_distribution, net_kernel and auth (as -setcookie, -hidden, -connect_all,
            // -epmd_module and -kernel ..., which take the generic path below).
            std::string err = note_node_start_flag(node_flags, argc, argv, i);
            if (!err.empty()) {
                std::fprintf(stderr, "beamvm: %s\n", err.c_str());
                return 2;
            }
            pass_flag(i);
        } else if (a == "-env") {
            if (i + 2 >= argc) {
                std::fprintf(stderr, "beamvm: -env needs a variable and a value\n");
                return 2;
            }
            setenv(argv[i + 1], argv[i + 2], 1);
            i += 2;
        } else if (a == "-noshell") {
            init_args.push_back(a);
        } else if (a == "-noinput") {
            init_args.push_back("-noshell");  // as erlexec: -noinput implies -noshell
            init_args.push_back(a);
        } else if (a == "-pa" || a == "-pz") {
            int first = i;
            auto& dst = a == "-pa" ? pa : pz;
            while (i + 1 < argc && !is_flag(argv[i + 1])) dst.push_back(argv[++i]);
            init_args.insert(init_args.end(), argv + first, argv + i + 1);
        } else if (a == "-s" || a == "-run") {
            Command c;
            c.strings = a == "-run";
            if (i + 1 >= argc || is_flag(argv[i + 1])) {
                std::fprintf(stderr, "beamvm: %s needs a module name\n", a.c_str());
                return 2;
            }
            int first = i;
            c.module = argv[++i];
            c.function = "start";
            if (i + 1 < argc && !is_flag(argv[i + 1])) c.function = argv[++i];
            while (i + 1 < argc && !is_flag(argv[i + 1])) {
                c.args.push_back(argv[++i]);
                c.has_args = true;
            }
            commands.push_back(std::move(c));
            init_args.insert(init_args.end(), argv + first, argv + i + 1);
        } else if (a == "-eval") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "beamvm: -eval needs an expression\n");
                return 2;
            }
            Command c;
            c.eval = true;
            c.args.push_back(argv[++i]);
            commands.push_back(std::move(c));
            init_args.push_back("-eval");
            init_args.push_back(argv[i]);
        } else if (a == "--watch" || a == "--watch=force" || a == "--watch=soft") {
            watch = true;
            watch_force = a == "--watch=force";
        } else if (a == "--port-grace" && i + 1 < argc) {
            char* end = nullptr;
            long long ms = std::strtoll(argv[++i], &end, 10);
            if (*argv[i] == '\0' || *end != '\0' || ms < 0) {
                std::fprintf(stderr, "beamvm: bad --port-grace '%s' (milliseconds)\n", argv[i]);
                return 2;
            }
            beam::set_default_port_grace_ms(ms);
        } else if (a == "--otp-root" && i + 1 < argc) {
            otp_root = argv[++i];
        } else if (!is_flag(argv[i]) && a.ends_with(".beam")) {
            script = true;
            script_path = a;
            Command c;
            c.module = fs::path(a).stem().string();
            c.function = "main";
            c.strings = true;
            c.has_args = true;
            // Its arguments end with the command line: the loop's ++i then steps past the "--"
            // the merge put after it (ERL_FLAGS and ERL_ZFLAGS follow, as flags).
            int end = int(std::min(merged.command_end + 1, storage.size()));  // storage: argv[0] first
            for (++i; i < end; ++i) c.args.push_back(argv[i]);
            commands.push_back(std::move(c));
        } else if (a.size() > 1 && a[0] == '-' && a[1] != '-') {
            // -boot, -config, -kernel Key Value, -App Key Value, ...: OTP's init reads them.
            pass_flag(i);
        } else if (a == "--" || !is_flag(argv[i])) {
            // erlexec passes "--" (which ends a flag's values) and bare words (plain
            // arguments, the files after -compile) on to init.
            init_args.push_back(a);
        } else {
            std::fprintf(stderr, "beamvm: unknown argument '%s' (see beamvm --help)\n", argv[i]);
            return 2;
        }
    }

    if (emu_flags.print_version) {
        std::fprintf(stderr, "%s\r\n", emulator_version_line().c_str());  // erts' line ending
        return 0;
    }
    SchedulerCounts counts;
    if (std::string err = resolve_schedulers(emu_flags, &counts); !err.empty()) emu_flag_usage_exit(err);
    int schedulers = counts.schedulers;
    vm.dirty_cpu_schedulers = counts.dirty_cpu;
    vm.dirty_io_schedulers = counts.dirty_io;
    apply_emu_flags(emu_flags, vm);
    if (otp_root.empty()) otp_root = find_otp_root();
    if (std::string err = check_node_start_flags(node_flags); !err.empty()) {
        std::fprintf(stderr, "beamvm: %s\n", err.c_str());
        return 2;
    }
    if (node_flags.distributed && (script || no_boot)) {
        std::fprintf(stderr, "beamvm: -sname and -name need OTP's kernel: not with --no-boot or a .beam file\n");
        return 2;
    }
    vm.set_boot_dir(exe_dir() + "/boot");
    // ^C, as erl's (io/tty/break_menu.hpp): the menu, or what +B chose.
    beam::tty::install_break_handler(vm, emu_flags.break_handling == 'c'   ? beam::tty::BreakMode::ToShell
                                         : emu_flags.break_handling == 'i' ? beam::tty::BreakMode::Ignored
                                         : emu_flags.break_handling == 'd' ? beam::tty::BreakMode::Disabled
                                                                           : beam::tty::BreakMode::Menu);

    std::unique_ptr<CodeWatcher> watcher;
    if (watch) {
        if (pa.empty()) {
            std::fprintf(stderr, "beamvm: --watch watches the -pa directories, and none is given\n");
            return 2;
        }
        watcher = std::make_unique<CodeWatcher>(vm, pa, watch_force);
    }
    auto start_watch = [&] {
        // +S N:M and +SDcpu N:M: the online parts, once the schedulers exist.
        if (vm.scheds && counts.online < counts.schedulers) vm.scheds->set_reported_online(counts.online);
        if (vm.scheds && counts.dirty_cpu_online < counts.dirty_cpu)
            vm.scheds->dirty().set_cpu_online(counts.dirty_cpu_online);
        if (!watcher) return;
        auto r = watcher->start();
        if (!r.ok()) std::fprintf(stderr, "beamvm: %s\n", r.error().message.c_str());
    };
    if (!script && !no_boot) {
        vm.otp_boot = true;
        vm.set_otp_root(otp_root);
        if (!start_epmd_if_needed(node_flags, erts_bindir(otp_root))) return 1;
        // progname is what peer, slave and test_server start for a new node: this beamvm,
        // as erl's is `erl` (both found by os:find_executable/1).
        std::string progname = exe_path();
        if (progname.empty()) progname = "erl";
        put_erts_bin_on_path(otp_root, erts_bindir(otp_root));
        if (show_emu_args || emu_args_exit)
            print_emulator_command(progname, otp_root, erts_bindir(otp_root), init_args, emu_args_exit);
        int status = boot_otp(vm, schedulers, init_args, progname, start_watch);
        watcher.reset();
        return status;
    }

    // beamvm's own quick start-up. Code path: -pa (in the order given), the current
    // directory, -pz, then OTP.
    for (auto& d : pa) vm.add_path_back(d);
    vm.add_path_back(".");
    for (auto& d : pz) vm.add_path_back(d);
    vm.set_otp_root(otp_root);

    auto init = vm.ensure_loaded(vm.root(), atom("init"));
    if (!init.ok()) {
        std::fprintf(stderr, "beamvm: cannot load the start-up module: %s\n", init.error().message.c_str());
        return 2;
    }
    if (script) {
        auto m = vm.load_file(vm.root(), script_path);
        if (!m.ok()) {
            std::fprintf(stderr, "beamvm: %s\n", m.error().message.c_str());
            return 2;
        }
    }
    BootArgs boot{&commands, script};
    int status = run_vm(vm, schedulers, atom("init"), atom("do_boot"), &boot_args, &boot, start_watch);
    watcher.reset();
    std::fflush(stdout);
    return status;
}

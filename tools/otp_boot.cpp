#include "tools/otp_boot.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bifs/bif_util.hpp"
#include "vm/binary.hpp"
#include "vm/runner.hpp"

namespace beam {

namespace {

namespace fs = std::filesystem;

// The arguments erlexec gives init: its own flags, then the user's.
Term init_arguments(TermAllocator& a, void* ctx) {
    auto* args = static_cast<std::vector<std::string>*>(ctx);
    std::vector<Term> items;
    for (const std::string& s : *args) items.push_back(make_binary(a, s));
    return make_list_from(a, items.data(), items.size());
}

}  // namespace

std::string erts_bindir(const std::string& root) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        std::string name = entry.path().filename().string();
        if (name.starts_with("erts-") && fs::is_directory(entry.path() / "bin", ec))
            return (entry.path() / "bin").string();
    }
    return root + "/bin";
}

int boot_otp(VM& vm, int schedulers, const std::vector<std::string>& user_args, const std::string& progname,
             const std::function<void()>& on_started) {
    const std::string& root = vm.otp_root();
    if (vm.erts_ebin().empty()) {
        std::fprintf(stderr, "beamvm: no erts-*/ebin under %s/lib: cannot boot OTP (see --otp-root)\n", root.c_str());
        return 2;
    }
    // OTP's preloaded modules (and beamvm's own) are there before the first process, as erts
    // has them: erl_init asks erlang:function_exported(init, boot, 1) before calling it.
    for (const std::string& m : vm.pre_loaded()) {
        auto loaded = vm.ensure_loaded(vm.root(), atom(m));
        if (!loaded.ok()) {
            std::fprintf(stderr, "beamvm: cannot load preloaded module %s: %s\n", m.c_str(),
                         loaded.error().message.c_str());
            return 2;
        }
    }
    const char* home = std::getenv("HOME");
    std::vector<std::string> args = {"-root", root, "-bindir", erts_bindir(root), "-progname", progname, "--",
                                     "-home", home ? home : "/"};
    // erlexec passes ERL_EPMD_PORT on as -epmd_port (erl_epmd reads it).
    if (const char* port = std::getenv("ERL_EPMD_PORT")) args.insert(args.end(), {"-epmd_port", port});
    args.push_back("--");
    args.insert(args.end(), user_args.begin(), user_args.end());
    // erl_init:start(init, Args): erl_init loads the static NIFs, then calls init:boot(Args).
    static auto make = [](TermAllocator& a, void* ctx) -> Term {
        Term items[2] = {atom("init"), init_arguments(a, ctx)};
        return make_list_from(a, items, 2);
    };
    // Pids as erts gives them: init is <0.0.0>, erts' system processes follow (1-5),
    // erl_init's prim_file helper is <0.6.0>, prim_socket's socket_registry <0.7.0>.
    vm.number_pids_from(0, 7, 0);
    auto as_init = [&vm](Process* init) {
        init->group_leader = init->pid;  // until kernel starts `user`
        vm.init_pid = init->pid;
        // erts' system processes, idle in beamvm (code purging is native,
        // bifs/system_code_loading.cpp; literal areas and dirty-process signals need no
        // helpers), there because OTP code looks erts_code_purger up and lists processes.
        for (const char* m : {"erts_code_purger", "erts_literal_area_collector", "erts_dirty_process_signal_handler",
                              "erts_dirty_process_signal_handler", "erts_dirty_process_signal_handler"}) {
            Process* sys = vm.new_process(vm.root(), 0, init->pid, true);
            vm.setup_call(sys, atom(m), atom("start"), NIL);
            vm.start_process(sys);
            ProcessTable::release(sys);
        }
    };
    return run_vm(vm, schedulers, atom("erl_init"), atom("start"), make, &args, on_started, as_init);
}

void put_erts_bin_on_path(const std::string& root, const std::string& bindir) {
    const char* old = std::getenv("PATH");
    std::string path;
    if (!old) {
        path = bindir + ":" + root + "/bin:";
    } else if (std::string(old).find(root) == std::string::npos) {
        path = bindir + ":" + root + "/bin:" + old;
    } else {
        // The installation is there already: erts' bin moves to the front, once.
        std::string rest = old, slug = bindir + ":";
        for (size_t at; (at = rest.find(slug)) != std::string::npos;) rest.erase(at, slug.size());
        path = slug + rest;
    }
    setenv("PATH", path.c_str(), 1);
}

void print_emulator_command(const std::string& program, const std::string& root, const std::string& bindir,
                            const std::vector<std::string>& init_args, bool then_exit) {
    const char* home = std::getenv("HOME");
    std::vector<std::string> args = {"--", "-root", root, "-bindir", bindir, "-progname", program, "--"};
    if (home) args.insert(args.end(), {"-home", home});
    args.push_back("--");
    args.insert(args.end(), init_args.begin(), init_args.end());
    if (then_exit) {
        for (const std::string& a : args) std::printf("%s\n", a.c_str());
        std::exit(0);
    }
    std::printf("Executing: %s", program.c_str());
    for (const std::string& a : args) std::printf(" %s", a.c_str());
    std::printf("\n\n");
    std::fflush(stdout);
}

}  // namespace beam


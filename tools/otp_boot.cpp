#include "tools/otp_boot.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bifs/bif_util.hpp"
#include "vm/binary.hpp"
#include "vm/otp_start.hpp"
#include "vm/runner.hpp"

namespace beam {

int boot_otp(VM& vm, int schedulers, const std::vector<std::string>& user_args, const std::string& progname,
             const std::function<void()>& on_started) {
    if (auto loaded = load_otp_preloaded(vm); !loaded.ok()) {
        std::fprintf(stderr, "beamvm: %s (see --otp-root)\n", loaded.error().message.c_str());
        return 2;
    }
    std::vector<std::string> args = otp_init_arguments(vm, progname, user_args);
    // erl_init:start(init, Args): erl_init loads the static NIFs, then calls init:boot(Args).
    static auto make = [](TermAllocator& a, void* ctx) -> Term {
        return erl_init_start_args(a, *static_cast<std::vector<std::string>*>(ctx));
    };
    // Pids as erts gives them: init is <0.0.0>, erts' system processes follow (1-5),
    // erl_init's prim_file helper is <0.6.0>, prim_socket's socket_registry <0.7.0>.
    vm.number_pids_from(0, 7, 0);
    auto as_init = [&vm](Process* init) { setup_otp_init(vm, init); };
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


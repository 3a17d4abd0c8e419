#include "vm/otp_start.hpp"

#include <cstdlib>
#include <filesystem>

#include "bifs/bif_util.hpp"
#include "vm/binary.hpp"

namespace beam {

namespace fs = std::filesystem;

std::string erts_bindir(const std::string& root) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        std::string name = entry.path().filename().string();
        if (name.starts_with("erts-") && fs::is_directory(entry.path() / "bin", ec))
            return (entry.path() / "bin").string();
    }
    return root + "/bin";
}

Result<void> load_otp_preloaded(VM& vm) {
    if (vm.erts_ebin().empty())
        return make_error("no erts-*/ebin under " + vm.otp_root() + "/lib: cannot boot OTP");
    for (const std::string& m : vm.pre_loaded()) {
        auto loaded = vm.ensure_loaded(vm.root(), atom(m));
        if (!loaded.ok()) return make_error("cannot load preloaded module " + m + ": " + loaded.error().message);
    }
    return {};
}

std::vector<std::string> otp_init_arguments(const VM& vm, const std::string& progname,
                                            const std::vector<std::string>& user_args) {
    const std::string& root = vm.otp_root();
    const char* home = std::getenv("HOME");
    std::vector<std::string> args = {"-root", root, "-bindir", erts_bindir(root), "-progname", progname, "--",
                                     "-home", home ? home : "/"};
    // erlexec passes ERL_EPMD_PORT on as -epmd_port (erl_epmd reads it).
    if (const char* port = std::getenv("ERL_EPMD_PORT")) args.insert(args.end(), {"-epmd_port", port});
    args.push_back("--");
    args.insert(args.end(), user_args.begin(), user_args.end());
    return args;
}

Term erl_init_start_args(TermAllocator& a, const std::vector<std::string>& init_args) {
    std::vector<Term> items;
    for (const std::string& s : init_args) items.push_back(make_binary(a, s));
    Term both[2] = {atom("init"), make_list_from(a, items.data(), items.size())};
    return make_list_from(a, both, 2);
}

void setup_otp_init(VM& vm, Process* init) {
    init->group_leader = init->pid;  // until kernel starts `user`
    vm.init_pid = init->pid;
    // erts' system processes, idle in beamvm (code purging is native,
    // bifs/system_code_loading.cpp; literal areas and dirty-process signals need no helpers),
    // there because OTP code looks erts_code_purger up and lists processes.
    for (const char* m : {"erts_code_purger", "erts_literal_area_collector", "erts_dirty_process_signal_handler",
                          "erts_dirty_process_signal_handler", "erts_dirty_process_signal_handler"}) {
        Process* sys = vm.new_process(vm.root(), 0, init->pid, true);
        vm.setup_call(sys, atom(m), atom("start"), NIL);
        vm.start_process(sys);
        ProcessTable::release(sys);
    }
}

}  // namespace beam

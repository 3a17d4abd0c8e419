// Booting OTP's own init (erl_init:start(init, BootArgs)) with a boot script from the OTP
// installation, as erl does: kernel, stdlib, then -s, -run and -eval.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "vm/otp_start.hpp"
#include "vm/vm.hpp"

namespace beam {

// Runs OTP's init with `user_args` (the command line's flags for init, in order, -extra and
// what follows it included) until the VM halts; returns the exit status. The VM must have
// otp_boot set and its OTP root and boot directory set. `on_started` as run_vm's.
// `progname` is init's -progname (erl's is "erl").
int boot_otp(VM& vm, int schedulers, const std::vector<std::string>& user_args, const std::string& progname,
             const std::function<void()>& on_started = {});

// As erlexec: erts' bin directory, then the installation's bin, first on PATH, so that OTP's
// port programs (heart, erl_child_setup's kin) and `erl` are found by name, as under erl.
void put_erts_bin_on_path(const std::string& root, const std::string& bindir);

// erl -emu_args / -emu_args_exit: the emulator's command line (here beamvm's and init's
// arguments), on stdout; -emu_args_exit then exits 0.
void print_emulator_command(const std::string& program, const std::string& root, const std::string& bindir,
                            const std::vector<std::string>& init_args, bool then_exit);

}  // namespace beam

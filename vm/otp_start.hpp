// What erts does before OTP's own init runs: the preloaded modules, the first process as
// init, erts' system processes, and the arguments erlexec gives init. Used by the command
// line (tools/otp_boot.cpp) and by an embedded VM that boots OTP (embed/embedded_vm.cpp).
#pragma once

#include <string>
#include <vector>

#include "vm/vm.hpp"

namespace beam {

// root/erts-Vsn/bin, which erl passes as -bindir (epmd and erl_child_setup live there).
std::string erts_bindir(const std::string& root);

// Loads OTP's preloaded modules (erts' ebin) and beamvm's own boot directory's, as erts has
// them before the first process (erl_init asks erlang:function_exported(init, boot, 1)).
// The VM must have otp_boot and its OTP root set. An error names the module.
Result<void> load_otp_preloaded(VM& vm);

// The arguments erlexec gives init (-root, -bindir, -progname, -home, ...), then `user_args`.
std::vector<std::string> otp_init_arguments(const VM& vm, const std::string& progname,
                                            const std::vector<std::string>& user_args);

// erl_init:start/2's arguments: [init, [Arg as a binary, ...]].
Term erl_init_start_args(TermAllocator& a, const std::vector<std::string>& init_args);

// Makes `init` (new, not yet runnable) erts' first process: its own group leader until kernel
// starts `user`, VM::init_pid, and erts' system processes started beside it (idle in beamvm,
// there because OTP code looks them up).
void setup_otp_init(VM& vm, Process* init);

}  // namespace beam

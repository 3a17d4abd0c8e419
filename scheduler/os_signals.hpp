// OS signals as erl handles them (os:set_signal/2): `default` and `ignore` set the OS
// disposition; `handle` delivers each arrival as the message {notify, Signal} to the process
// registered as erl_signal_server in the VM that asked (OTP's kernel runs that server), or to
// nobody if none is registered.
#pragma once

#include <string_view>

namespace beam {

class VM;

enum class SignalDisposition { Default, Ignore, Handle };

// The signals erl lets a program set (sighup, sigquit, sigabrt, sigalrm, sigterm, sigusr1,
// sigusr2, sigchld, sigstop, sigtstp); 0 for any other name.
int signal_number(std::string_view name);
void set_os_signal(VM* vm, int signo, SignalDisposition d);
// VM teardown: signals it handles are no longer delivered to it.
void forget_os_signals(VM* vm);
// erl's own default for SIGUSR1: a crash dump with the slogan "Received SIGUSR1", then the
// OS process ends with status 1. The command line's VM asks for it (one VM per OS process
// can: a host embedding several leaves SIGUSR1 alone). os:set_signal(sigusr1, default) comes
// back to it; `handle` and `ignore` replace it as on erl.
void dump_on_sigusr1(VM* vm);

}  // namespace beam

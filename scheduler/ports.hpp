// Ports and the OS processes behind them (design notes §10, docs/ports.md).
//
// A port is like a process for signals: an id #Port<0.N> from a table of its own, a connected
// owner, links, and commands, closes and connects acted on in the order they are sent. One I/O
// thread per VM (scheduler/port_io.cpp) owns an epoll set holding every port's pipes and every
// child's pidfd: it reads child output into messages for the owner, writes queued commands
// when a pipe is writable, notices exits through the pidfd, and carries closed ports' children
// through the termination policy (stdin closed → grace → SIGTERM → grace → SIGKILL → reaped).
//
// This header is the narrow face the rest of the VM calls. All port state sits behind one
// mutex in PortSystem; every entry point takes it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/port_driver.hpp"
#include "vm/term.hpp"
#include "vm/trace.hpp"

namespace beam {

class VM;
class Process;
class PortSystem;
class Namespace;

// The settings of erlang:open_port/2, checked by bifs/system_ports.cpp.
struct PortSettings {
    enum class Kind : uint8_t { Spawn, SpawnExecutable, Fd, Driver };
    Kind kind = Kind::Spawn;
    std::string command;  // Spawn: the shell command line; SpawnExecutable: the file
    bool has_args = false;
    std::vector<std::string> args;
    std::optional<std::string> arg0;
    std::vector<std::pair<std::string, std::optional<std::string>>> env;  // nullopt: unset
    std::optional<std::string> cd;
    int fd_in = -1, fd_out = -1;  // Fd
    bool exit_status = false;
    bool use_stdio = true;
    bool stderr_to_stdout = false;
    bool in = true, out = true;
    bool binary = false;
    bool eof = false;
    int packet = 0;       // 0: stream; else the header size 1, 2 or 4
    size_t line = 0;      // {line, L}; 0: not in line mode
    int64_t kill_timeout_ms = -1;  // {kill_timeout, Ms}; -1: the VM's --port-grace
    PortDriverFactory driver = nullptr;  // Driver: {spawn_driver, Name} (scheduler/port_driver.hpp)
};

struct FlowCredit;
// A port's message has been taken in or dropped (scheduler/signals.cpp calls this).
void return_flow_credit(FlowCredit& c, int64_t units);

// Default grace between the termination steps (stdin closed, SIGTERM, SIGKILL); --port-grace.
void set_default_port_grace_ms(int64_t ms);
int64_t default_port_grace_ms();

// The VM's port system, created on first use.
PortSystem& ports_of(VM& vm);

// Result of an operation a BIF asks for: what the BIF returns or raises.
// Queued: the port is busy; the command waits in the port and, when `reply_ref` was given,
// {Ref, true} goes to the sender once it has been handed to the driver.
enum class PortOpResult : uint8_t { Ok, NoPort, Badarg, Busy, Queued };

// Opens a port owned (and linked to) `owner`. On failure returns nullopt with *posix_error
// set to the errno of the failed spawn (open_port raises {error, Posix}-like errors).
std::optional<Term> port_open(VM& vm, Process* owner, const PortSettings& s, int* posix_error);

// port_command/2,3 and Port ! {Pid, {command, Data}} (bytes already flattened).
// `from` (the pid the command came from) is what the port's 'receive' trace event names.
// A busy driver port (high watermark) answers Busy with `nosuspend`, else queues the command
// (the BIF then returns `reply_ref` and its caller waits, as erts suspends it).
PortOpResult port_command(VM& vm, Term port, const uint8_t* data, size_t n, Term from = NIL, bool nosuspend = false,
                          Term reply_ref = NIL);
// erlang:port_control/3 on a driver port from `caller`: the reply bytes, nullopt for badarg
// (no such port, or a port whose driver answers no control).
std::optional<std::string> port_control(VM& vm, Term port, Term caller, unsigned op, std::string_view data);
// port_close/1 (any process may close a port); Port ! {Pid, close} replies {Port, closed}.
// `from`: the closing process, for the port's 'receive' trace event ({From, close}).
PortOpResult port_close(VM& vm, Term port, Term reply_to = NIL, Term from = NIL);
// port_connect/2 and {Pid, {connect, New}}: New becomes the owner; port_connect/2 links it
// (the message does not, as in OTP).
PortOpResult port_connect(VM& vm, Term port, Term new_owner, Term reply_to = NIL, bool link = true);
// Port ! Msg from process `sender` (the send BIF and instruction route ports here).
void port_send(VM& vm, Process* sender, Term port, Term msg);
// An exit signal from `from` to the port (a linked process dying, exit/2).
void port_exit_signal(VM& vm, Term from, Term port, Term reason, bool linked);
// link/1 and unlink/1 from process `pid`; link returns false if the port is gone.
bool port_link(VM& vm, Term port, Term pid);
void port_unlink(VM& vm, Term port, Term pid);
// erlang:monitor(port, Port): false if the port is gone (the caller sends DOWN noproc).
// `name`: monitored by its registered name (the DOWN message names it {Name, Node}), or NIL.
bool port_monitor(VM& vm, Term port, Term pid, const Word ref[3], Term name = NIL);
void port_demonitor(VM& vm, Term port, const Word ref[3]);

// port_info/1,2 items, built on `p`'s heap; nullopt if the port is gone.
// erlang:port_set_data/2, port_get_data/1: false / nullopt when `port` is not open.
bool port_set_data(VM& vm, Term port, Term data);
bool port_is_open(VM& vm, Term port);
// erlang:register(Name, Port) in namespace `ns`: false if the port is not open, the name is
// taken or the port has a name. The name goes when the port closes.
bool port_register(VM& vm, const Namespace* ns, Term name, Term port);
std::optional<Term> port_get_data(VM& vm, Process* proc, Term port);
std::optional<Term> port_info_item(VM& vm, Process* p, Term port, Term item);
// erlang:ports/0 and system_info(port_count).
Term port_list(VM& vm, Process* p);
size_t port_count(VM& vm);

// erlang:trace/3 on ports: `f` gets the port's trace flags and tracer to read or change
// (false if the port is gone), or those of every open port.
bool port_trace_state(VM& vm, Term port, const std::function<void(uint32_t&, TracerRef&)>& f);
void each_port_trace_state(VM& vm, const std::function<void(uint32_t&, TracerRef&)>& f);

// beamvm:port_children/0: the OS processes not yet reaped, [{OsPid, State}], and
// beamvm:port_policy_counts/0: how many children got SIGTERM, SIGKILL, were reaped.
Term port_children(VM& vm, Process* p);
Term port_policy_counts(VM& vm, Process* p);

}  // namespace beam

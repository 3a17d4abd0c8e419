// The native side of OTP's socket module: prim_socket's nif_* functions (erts/preloaded/src/
// prim_socket.erl; OTP implements them in erts/emulator/nifs/common/prim_socket_nif.c).
//
// A socket is a magic reference to a Socket (vm/term_magic_ref.hpp); socket.erl wraps it as
// {'$socket', SockRef}. Every operation is non-blocking: one that would block answers
// `select` (or {select, ...}), arms the descriptor in the VM's poller (io/poller.hpp) and the
// waiting process later gets {'$socket', {'$socket', SockRef}, select, Ref} (its Ref), or
// {'$socket', {'$socket', SockRef}, abort, {Ref, Reason}} when the wait ends otherwise (close,
// a fatal error). As in OTP, one reader, one writer, one acceptor and one connector are
// "current" at a time; others queue (their call answers `select` at once and they are sent
// the select message when their turn comes and the descriptor is ready).
//
// Life: nif_close + nif_finalize_close close it; the owner's death closes it (a native
// monitor, scheduler/native_monitors.hpp); a Socket no longer referenced by any term closes
// its descriptor in its destructor. The socket registry process (socket_registry.erl) is
// told {'$socket', add | del, Socket} as the NIF tells it.
//
// Threading: the natives run on any scheduler, the poller's events on its thread and the
// monitors' on the dying process's: every field is guarded by `mu`.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <optional>

#include "io/poller.hpp"
#include "scheduler/native_monitors.hpp"
#include "vm/copy_term.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {
class Process;
class VM;
}

namespace beam::esock {

// Read and write state bits (prim_socket_nif.c's ESOCK_STATE_*), reported by info/1.
enum : unsigned {
    ST_BOUND = 1 << 0,
    ST_LISTENING = 1 << 1,
    ST_ACCEPTING = 1 << 2,
    ST_CONNECTING = 1 << 3,
    ST_CONNECTED = 1 << 4,
    ST_SELECTED = 1 << 5,
    ST_CLOSING = 1 << 6,
    ST_CLOSED = 1 << 7,
    ST_DTOR = 1 << 8,
};
inline bool is_open(unsigned st) { return (st & (ST_CLOSED | ST_CLOSING)) == 0; }

// A term kept off every process heap (a select or operation reference, the meta value).
class HeldTerm {
public:
    HeldTerm() = default;
    explicit HeldTerm(Term t) : buf_(copy_to_buffer(t)), set_(true) {}
    HeldTerm(HeldTerm&& o) noexcept : buf_(o.buf_), set_(o.set_) { o.buf_ = {}, o.set_ = false; }
    HeldTerm& operator=(HeldTerm&& o) noexcept {
        if (this != &o) {
            reset();
            buf_ = o.buf_, set_ = o.set_;
            o.buf_ = {}, o.set_ = false;
        }
        return *this;
    }
    ~HeldTerm() { reset(); }
    void reset() {
        if (set_) discard_buffer(buf_);
        buf_ = {}, set_ = false;
    }
    bool has() const { return set_; }
    Term term() const { return set_ ? buf_.term : NIL; }

private:
    MessageBuffer buf_;
    bool set_ = false;
};

// A process waiting on an operation (OTP's ESockRequestor): its pid, the operation's
// reference and the native monitor that drops it if it dies.
struct Requestor {
    Term pid = NIL;
    HeldTerm ref;
    uint64_t mon = 0;
};

// One direction's armed poller interest (enif_select's): who is told, with which reference.
struct Select {
    bool armed = false;
    Term pid = NIL;
    HeldTerm ref;
};

struct Counters {
    uint64_t read_byte = 0, read_fails = 0, read_pkg = 0, read_pkg_max = 0, read_tries = 0, read_waits = 0;
    uint64_t write_byte = 0, write_fails = 0, write_pkg = 0, write_pkg_max = 0, write_tries = 0,
             write_waits = 0;
    uint64_t acc_success = 0, acc_fails = 0, acc_tries = 0, acc_waits = 0;
};

class SocketLink;

class Socket final : public MagicKind<Socket> {
public:
    Socket(VM& vm, int fd, int domain, int type, int protocol);
    ~Socket() override;
    size_t byte_size() const override { return sizeof(*this); }

    VM& vm;
    std::mutex mu;
    int fd;
    int domain, type, protocol;
    unsigned rstate = 0, wstate = 0;
    Term owner = NIL;
    uint64_t owner_mon = 0;
    Term closer = NIL;
    uint64_t closer_mon = 0;
    std::optional<Requestor> reader, writer, acceptor, connector;
    std::deque<Requestor> readers, writers, acceptors;
    Select rsel, wsel;
    IoHandle io = 0;  // registered with the poller on the first select
    std::shared_ptr<SocketLink> link;
    Term registry = NIL;  // socket_registry's pid, or NIL when this socket does not use it
    // Options the NIF keeps itself ({otp, _} level).
    bool debug = false, iow = false;
    size_t rbuf_size = 8192;    // recv's buffer when asked for "all" (otp rcvbuf)
    unsigned rnum = 0, rnum_cnt = 0;  // otp rcvbuf's {N, Size}: reads before {ok, ...}
    size_t rctrl_size = 1024, wctrl_size = 1024;
    HeldTerm meta;
    int orig_fd = -1;          // created from this descriptor (open/2)
    int sendfile_fd = -1;      // the file of a sendfile in progress (a duplicate)
    bool close_on_close = true;
    uint64_t read_pkg_cnt = 0, write_pkg_cnt = 0;  // bytes of the packet in progress (pkg_max)
    Counters cnt;
};

// The poller's and the monitors' handle on a socket: a weak one (the reference's number), so
// neither keeps an unreferenced socket alive.
class SocketLink final : public IoWatcher, public ExitWatcher {
public:
    SocketLink(VM& vm, uint64_t ref_number) : vm_(vm), ref_number_(ref_number) {}
    void on_io(uint32_t events) override;
    void on_exit(Term pid, uint64_t id) override;

private:
    VM& vm_;
    uint64_t ref_number_;
};

// ---- socket_core.cpp: life, the select protocol, waiting processes ----

// The socket of a prim_socket argument, or null (the caller answers badarg).
Socket* socket_of(Term sockref);
// A new socket for `fd` owned by the caller, registered with socket_registry if
// `use_registry`; the result is its SockRef.
Term new_socket(Process* p, int fd, int domain, int type, int protocol, bool use_registry);
// {'$socket', add | del, Socket} to socket_registry, when this socket uses it.
void registry_msg(Socket& s, Term sockref, const char* tag);
// The global socket counts (nif_info/0 and socket:number_of/0).
struct GlobalCounts {
    uint64_t sockets, dgram, stream, seqpacket, local, inet, inet6, ip, tcp, udp, sctp;
};
GlobalCounts global_counts();
bool global_use_registry();
void set_global_use_registry(bool on);
bool global_debug();
void set_global_debug(bool on);
bool global_socket_debug();
void set_global_socket_debug(bool on);
bool global_iow();

// Arms read (`write` false) or write interest for pid with `ref`. False if it cannot.
bool select_arm(Socket& s, Term sockref, bool write, Term pid, Term ref);
// Disarms one direction: true if it was armed (the select message will not come).
bool select_cancel(Socket& s, bool write);

// {'$socket', {'$socket', SockRef}, Tag, Info} to pid.
void send_socket_msg(VM& vm, Term pid, Term sockref, Term tag, Term info);
void send_abort(VM& vm, Term sockref, const Requestor& r, Term reason);

// A requestor for the calling process (monitored).
Requestor make_requestor(Socket& s, Process* p, Term ref);
// Drops the requestor's monitor.
void release_requestor(Socket& s, Requestor& r);
bool queued_pid(const std::deque<Requestor>& q, Term pid);
// Takes the queued requestor of `pid` (with `ref` if given) out of `q`: true if there was one.
bool unqueue(Socket& s, std::deque<Requestor>& q, Term pid, const Term* ref);
// Makes the next queued requestor current (armed for its direction); false if none could be.
bool activate_next(Socket& s, Term sockref, std::optional<Requestor>& current, std::deque<Requestor>& q,
                   bool write);
// A fatal error for the direction: the current requestor is dropped and every queued one aborted.
void fail_waiting(Socket& s, Term sockref, std::optional<Requestor>& current, std::deque<Requestor>& q,
                  Term reason);

// Everything close does before the descriptor goes: disarms, aborts waiting processes.
void stop_socket(Socket& s, Term sockref);
// Closes the descriptor (after stop), updating the counts and telling the registry. Returns errno or 0.
int close_descriptor(Socket& s, Term sockref);

// Small helpers shared by the natives.
Term error_tuple(Process* p, Term reason);
Term errno_tuple(Process* p, int err);
Term invalid_tuple(Process* p, Term what);  // {invalid, What}
Term error_invalid(Process* p, Term what);  // {error, {invalid, What}}
Term raise_invalid(Process* p, Term what);  // error({invalid, What})
Term integer_range(Process* p, Term i);     // {invalid, {integer_range, I}}
bool get_int(Term t, int& out);
bool get_uint64(Term t, uint64_t& out);
// A map with these atom keys (in any order: maps sort them).
Term make_atom_map(Process* p, std::initializer_list<std::pair<const char*, Term>> kvs);
Term encode_domain(Process* p, int domain);
Term encode_type(Process* p, int type);

}  // namespace beam::esock

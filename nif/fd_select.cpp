// enif_select's per-descriptor state on the VM's poller (nif/fd_select.hpp).
#include "nif/fd_select.hpp"

#include <fcntl.h>
#include <sys/epoll.h>

#include <climits>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bifs/bif_util.hpp"
#include "io/poller.hpp"
#include "nif/nif_env.hpp"
#include "nif/resources.hpp"
#include "scheduler/signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy_term.hpp"
#include "vm/term_print.hpp"
#include "vm/vm.hpp"

namespace beam::nif {

namespace {

enum Dir { IN, OUT, ERR, DIRS };
constexpr int DIR_FLAG[DIRS] = {ERL_NIF_SELECT_READ, ERL_NIF_SELECT_WRITE, ERL_NIF_SELECT_ERROR};
constexpr uint32_t DIR_EPOLL[DIRS] = {EPOLLIN, EPOLLOUT, EPOLLERR};
constexpr int DIR_CANCELLED[DIRS] = {ERL_NIF_SELECT_READ_CANCELLED, ERL_NIF_SELECT_WRITE_CANCELLED,
                                     ERL_NIF_SELECT_ERROR_CANCELLED};
const char* const DIR_ATOM[DIRS] = {"ready_input", "ready_output", "ready_error"};

// One armed direction: who is told, and the message, built when the select was made (as
// erts' prepare_select_msg), in an area of its own that keeps the resource's term alive.
struct Armed {
    Term pid = NIL;
    std::unique_ptr<LiteralArea> area;
    Term msg = NIL;
    bool on() const { return pid != NIL; }
};

struct FdState {
    VM* vm = nullptr;
    ResourceObject* resource = nullptr;  // holds a count until STOP or a steal
    IoHandle io = 0;
    uint64_t generation = 0;  // which registration a poller event belongs to
    bool want_error = false;  // ERROR was selected (erts' ERTS_EV_FLAG_WANT_ERROR), until STOP
    Armed dir[DIRS];

    uint32_t armed_mask() const {
        uint32_t m = 0;
        for (int d = 0; d < DIRS; ++d)
            if (dir[d].on()) m |= DIR_EPOLL[d];
        return m;
    }
};

// What leaves the lock to be done after it: messages to send, counts to drop. Sending and
// releasing run NIF code or take other locks (a dtor may call enif_select).
struct Deferred {
    std::vector<Armed> sends;
    std::vector<Armed> discards;
    std::vector<ResourceObject*> releases;
    VM* vm = nullptr;
    ~Deferred() {
        for (Armed& a : sends) post_message(*vm, a.pid, a.msg);
        sends.clear();
        discards.clear();
        for (ResourceObject* r : releases) r->release();
    }
};

struct Registry {
    std::mutex mu;  // taken before the poller's own lock (io_arm), never after
    std::unordered_map<int, FdState> fds;
    uint64_t next_generation = 1;
};
Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: a late poller event may still come
    return *r;
}

void on_fd_event(int fd, uint64_t generation, uint32_t events);

class FdWatcher final : public IoWatcher {
public:
    FdWatcher(int fd, uint64_t generation) : fd_(fd), generation_(generation) {}
    void on_io(uint32_t events) override { on_fd_event(fd_, generation_, events); }

private:
    int fd_;
    uint64_t generation_;
};

// Ends the fd's tie to its resource: the poller forgets it, armed messages are dropped.
void drop_state(Registry& r, std::unordered_map<int, FdState>::iterator it, Deferred& later) {
    FdState& st = it->second;
    if (st.io) io_forget(*st.vm, st.io);
    for (Armed& a : st.dir)
        if (a.on()) later.discards.push_back(std::move(a));
    later.releases.push_back(st.resource);
    r.fds.erase(it);
}

// erts sends a steal's error report to the system logger (erts_send_error_to_logger_nogl);
// without a calling process or booted OTP it goes to stderr.
void report_steal(const SelectCall& c, const FdState& st) {
    const ErlNifResourceType* t = st.resource->type();
    char text[256];
    std::snprintf(text, sizeof text, "enif_select(_, %d,%s%s%s, %s:%s) stealing control of fd=%d from resource %s:%s",
                  c.fd, c.mode & ERL_NIF_SELECT_READ ? " READ" : "", c.mode & ERL_NIF_SELECT_WRITE ? " WRITE" : "",
                  c.mode & ERL_NIF_SELECT_STOP ? " STOP" : (c.mode & ERL_NIF_SELECT_CANCEL ? " CANCEL" : ""),
                  display_string(c.obj->type()->module).c_str(), c.obj->type()->name.c_str(), c.fd,
                  display_string(t->module).c_str(), t->name.c_str());
    if (c.caller && c.caller->vm->otp_boot) {
        Term line = make_string(*c.caller, text);
        if (send_to_system_logger(c.caller, "error", "~s~n", make_list_from(*c.caller, &line, 1))) return;
    }
    std::fprintf(stderr, "=ERROR REPORT====\n%s\n\n", text);
}

Armed prepare(const SelectCall& c, int d) {
    Armed a;
    a.pid = c.recipient;
    a.area = std::make_unique<LiteralArea>();
    if (c.mode & ERL_NIF_SELECT_CUSTOM_MSG) {
        a.msg = copy_term(c.msg, *a.area);
    } else {
        Term res = make_magic_ref(*a.area, c.obj);
        a.msg = make_tuple(*a.area, {atom("select"), res, copy_term(c.msg, *a.area), atom(DIR_ATOM[d])});
    }
    return a;
}

void call_stop(ResourceObject* obj, int fd, VM& vm) {
    if (ErlNifResourceStop* stop = obj->type()->init.stop) {
        CallbackEnv cb(&vm);
        stop(&cb.env, obj->data(), fd, 1);
    }
}

int select_stop(Registry& r, VM& vm, const SelectCall& c) {
    int result = ERL_NIF_SELECT_STOP_CALLED;
    ResourceObject* tied = nullptr;
    {
        Deferred later;
        later.vm = &vm;
        std::unique_lock lock(r.mu);
        auto it = r.fds.find(c.fd);
        if (it != r.fds.end()) {
            FdState& st = it->second;
            if (st.resource != c.obj) {
                report_steal(c, st);
            } else {
                if (st.dir[IN].on()) result |= ERL_NIF_SELECT_READ_CANCELLED;
                if (st.dir[OUT].on()) result |= ERL_NIF_SELECT_WRITE_CANCELLED;
                tied = st.resource;
                tied->retain();  // past drop_state's release: until the stop callback returned
            }
            drop_state(r, it, later);
        }
    }
    call_stop(c.obj, c.fd, vm);
    if (tied) tied->release();
    return result;
}

int select_cancel(Registry& r, VM& vm, const SelectCall& c) {
    int result = 0;
    Deferred later;
    later.vm = &vm;
    std::lock_guard lock(r.mu);
    auto it = r.fds.find(c.fd);
    if (it == r.fds.end()) return 0;
    FdState& st = it->second;
    if (st.resource != c.obj) {
        report_steal(c, st);
        drop_state(r, it, later);
        return 0;
    }
    bool changed = false;
    for (int d = 0; d < DIRS; ++d) {
        if (!(c.mode & DIR_FLAG[d]) || !st.dir[d].on()) continue;
        later.discards.push_back(std::move(st.dir[d]));
        st.dir[d] = Armed{};
        result |= DIR_CANCELLED[d];
        changed = true;
    }
    if (changed) io_arm(vm, st.io, st.armed_mask());
    return result;
}

int select_on(Registry& r, VM& vm, const SelectCall& c) {
    Deferred later;
    later.vm = &vm;
    std::lock_guard lock(r.mu);
    auto it = r.fds.find(c.fd);
    if (it != r.fds.end() && it->second.resource != c.obj) {
        report_steal(c, it->second);
        drop_state(r, it, later);
        it = r.fds.end();
    }
    if (it == r.fds.end()) {
        // erts answers FAILED when the poll set refuses the descriptor (a closed one).
        if (fcntl(c.fd, F_GETFD) < 0) return INT_MIN | ERL_NIF_SELECT_FAILED;
        it = r.fds.emplace(c.fd, FdState{}).first;
        FdState& st = it->second;
        st.vm = &vm;
        st.resource = c.obj;
        c.obj->retain();  // erts' enif_keep_resource: tied until STOP
        st.generation = r.next_generation++;
        st.io = io_register(vm, c.fd, std::make_shared<FdWatcher>(c.fd, st.generation));
    }
    FdState& st = it->second;
    for (int d = 0; d < DIRS; ++d) {
        if (!(c.mode & DIR_FLAG[d])) continue;
        if (st.dir[d].on()) later.discards.push_back(std::move(st.dir[d]));
        st.dir[d] = prepare(c, d);
    }
    if (c.mode & ERL_NIF_SELECT_ERROR) st.want_error = true;
    io_arm(vm, st.io, st.armed_mask());
    return 0;
}

// The poller's thread: the ready directions' messages go out, each once; what is still armed
// is armed again (the poller's interest is one-shot).
void on_fd_event(int fd, uint64_t generation, uint32_t events) {
    Registry& r = registry();
    Deferred later;
    std::lock_guard lock(r.mu);
    auto it = r.fds.find(fd);
    if (it == r.fds.end() || it->second.generation != generation) return;  // stopped meanwhile
    FdState& st = it->second;
    later.vm = st.vm;
    uint32_t armed = st.armed_mask();
    uint32_t ready;
    if ((events & (EPOLLERR | EPOLLHUP)) && !(st.want_error && st.dir[ERR].on())) {
        // An error wakes every armed direction, so its owner finds it when it tries (erts);
        // also without ERROR armed, else a hung-up fd would wake the poller forever.
        ready = armed;
    } else {
        ready = events & armed;
        if (events & (EPOLLERR | EPOLLHUP)) ready |= EPOLLERR;
    }
    for (int d = 0; d < DIRS; ++d) {
        if (!(ready & DIR_EPOLL[d]) || !st.dir[d].on()) continue;
        later.sends.push_back(std::move(st.dir[d]));
        st.dir[d] = Armed{};
    }
    if (uint32_t still = st.armed_mask()) io_arm(*st.vm, st.io, still);
}

}  // namespace

int fd_select(VM& vm, const SelectCall& c) {
    if (c.fd < 0) return INT_MIN | ERL_NIF_SELECT_INVALID_EVENT;
    Registry& r = registry();
    if (c.mode & ERL_NIF_SELECT_STOP) return select_stop(r, vm, c);
    if (c.mode & ERL_NIF_SELECT_CANCEL) return select_cancel(r, vm, c);
    if (!(c.mode & (ERL_NIF_SELECT_READ | ERL_NIF_SELECT_WRITE | ERL_NIF_SELECT_ERROR)))
        return INT_MIN | ERL_NIF_SELECT_INVALID_EVENT;
    if (!is_local_pid(c.recipient)) return INT_MIN | ERL_NIF_SELECT_FAILED;
    return select_on(r, vm, c);
}

}  // namespace beam::nif

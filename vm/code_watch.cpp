#include "vm/code_watch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "bifs/bif_util.hpp"
#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

namespace beam {

CodeWatcher::CodeWatcher(VM& vm, std::vector<std::string> dirs, bool force)
    : vm_(vm), dirs_(std::move(dirs)), force_(force) {}

CodeWatcher::~CodeWatcher() {
    if (thread_.joinable()) {
        char b = 0;
        [[maybe_unused]] ssize_t n = write(stop_[1], &b, 1);
        thread_.join();
    }
    for (int fd : {inotify_, stop_[0], stop_[1]})
        if (fd >= 0) close(fd);
}

Result<void> CodeWatcher::start() {
    inotify_ = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (inotify_ < 0) return make_error(fmt::format("--watch: inotify: {}", std::strerror(errno)));
    if (pipe2(stop_, O_CLOEXEC) != 0) return make_error(fmt::format("--watch: pipe: {}", std::strerror(errno)));
    // erlc writes a .beam in place (close after write) or a build tool moves one in.
    for (const std::string& d : dirs_) {
        int wd = inotify_add_watch(inotify_, d.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO);
        if (wd < 0) return make_error(fmt::format("--watch: cannot watch {}: {}", d, std::strerror(errno)));
        watches_.push_back(wd);
    }
    thread_ = std::thread([this] { run(); });
    return {};
}

void CodeWatcher::run() {
    alignas(inotify_event) char buf[16 * (sizeof(inotify_event) + NAME_MAX + 1)];
    for (;;) {
        pollfd fds[2] = {{inotify_, POLLIN, 0}, {stop_[0], POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return;
        }
        if (fds[1].revents) return;
        ssize_t n;
        while ((n = read(inotify_, buf, sizeof buf)) > 0) {
            for (char* at = buf; at < buf + n;) {
                auto* ev = reinterpret_cast<inotify_event*>(at);
                at += sizeof(inotify_event) + ev->len;
                if (ev->len == 0) continue;
                std::string name = ev->name;
                if (!name.ends_with(".beam")) continue;
                for (size_t i = 0; i < watches_.size(); ++i)
                    if (watches_[i] == ev->wd) changed(dirs_[i], name);
            }
        }
    }
}

// Hands the change to the watch server, started on first use, which does the loading in a
// process of its own (purging needs one). Modules not loaded are left alone: they load from
// the code path on their first call anyway.
void CodeWatcher::changed(const std::string& dir, const std::string& file) {
    Term module = atom(file.substr(0, file.size() - 5));
    if (!vm_.root().current(module)) return;
    Term server = vm_.procs.whereis(&vm_.root(), atom("beamvm_watch"));
    if (server == am::undefined) {
        Process* p = vm_.new_process(vm_.root(), 0, vm_.procs.whereis(&vm_.root(), atom("user")), true);
        vm_.setup_call(p, atom("beamvm_watch"), atom("server"), NIL);
        vm_.procs.register_name(atom("beamvm_watch"), p);
        server = p->pid;
        vm_.start_process(p);
        ProcessTable::release(p);
    }
    LiteralArea scratch;
    Term path = make_string(scratch, VM::absname(dir + "/" + file));
    Term mode = force_ ? atom("force") : atom("soft");
    post_message(vm_, server, make_tuple(scratch, {atom("reload"), module, path, mode}));
}

}  // namespace beam

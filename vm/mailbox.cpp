// Messages and receive for a process running alone (issue 4 brings other processes, signal
// queues and the I/O server). A message sent to oneself is already on one's own heap, so it
// is queued without copying; the GC treats the mailbox as roots.
#include <chrono>
#include <thread>

#include "vm/interp_support.hpp"

namespace beam {

Term send_message(Process* p, Term to, Term msg) {
    if (to == p->pid) {
        p->mailbox.push_back(msg);
        return msg;
    }
    if (is_atom(to)) return p->badarg();  // no registered processes yet
    if (is_pid(to)) return msg;           // other processes do not exist: the message is dropped
    return p->badarg();
}

Term peek_message(Process* p) {
    if (p->mailbox_save < p->mailbox.size()) return p->mailbox[p->mailbox_save];
    return NON_VALUE;
}

void advance_message(Process* p) { p->mailbox_save++; }

void remove_message(Process* p) {
    p->mailbox.erase(p->mailbox.begin() + long(p->mailbox_save));
    p->mailbox_save = 0;
    p->timed_out = false;
}

bool set_timeout(Process* p, Term timeout) {
    if (timeout == am::infinity) return true;
    if (!is_small(timeout) || small_value(timeout) < 0) {
        p->error(am::timeout_value);
        return false;
    }
    // Nothing else can send to a lone process, so the timeout always expires.
    std::this_thread::sleep_for(std::chrono::milliseconds(small_value(timeout)));
    p->timed_out = true;
    return true;
}

void clear_timeout(Process* p) {
    p->timed_out = false;
    p->mailbox_save = 0;
}

}  // namespace beam

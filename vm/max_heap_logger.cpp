#include "vm/max_heap_logger.hpp"

#include <string>

#include "bifs/bif_util.hpp"
#include "scheduler/signals.hpp"
#include "vm/gc.hpp"
#include "vm/heap.hpp"
#include "vm/node_identity.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beam {

bool max_heap_report_to_logger(Process* p, size_t total) {
    if (!p->vm || !p->vm->otp_boot) return false;
    const NodeIdentity& node = thread_node_identity();
    bool alive = node.is_alive();
    std::string format = "     Process:            ~p ";
    if (alive) format += "on node ~p";
    format += "~n     Context:            maximum heap size reached~n"
              "     Max Heap Size:      ~p~n"
              "     Total Heap Size:    ~p~n"
              "     Kill:               ~p~n"
              "     Error Logger:       ~p~n"
              "     Message Queue Len:  ~p~n"
              "     GC Info:            ~p~n";
    LiteralArea a;
    Term args[8];
    size_t n = 0;
    args[n++] = p->pid;
    if (alive) args[n++] = node.name();
    args[n++] = make_small(SWord(p->max_heap.size));
    args[n++] = make_small(SWord(total));
    args[n++] = p->max_heap.kill ? am::true_ : am::false_;
    args[n++] = am::true_;
    args[n++] = make_small(SWord(p->mailbox_len.load(std::memory_order_relaxed)));
    args[n++] = gc_info_list(a, p);
    return send_to_system_logger(p, "error", format, make_list_from(a, args, n));
}

}  // namespace beam

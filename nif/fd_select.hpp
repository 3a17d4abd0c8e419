// enif_select on the VM's one poller (io/poller.hpp), with erts' semantics
// (erts/emulator/sys/common/erl_check_io.c, enif_select_x and the ERTS_EV_TYPE_NIF case of
// its event loop):
//   - state is per descriptor: the first READ/WRITE/ERROR select ties the fd to its resource,
//     which is kept alive (a count) until ERL_NIF_SELECT_STOP; selecting it with another
//     resource steals it (the old resource's tie is dropped, with an error report to logger);
//   - each direction is one-shot: the message ({select, Resource, Ref, ready_input |
//     ready_output | ready_error}, or the custom message) is built when the select is made
//     and sent once when the fd is ready; a new select replaces the message;
//   - CANCEL drops the armed directions and says which it dropped (*_CANCELLED);
//   - STOP cancels everything and calls the type's `stop` callback directly
//     (is_direct_call = 1), then drops the resource's count. erts on Linux does the same:
//     its epoll set is updated concurrently, so it never has to schedule the stop
//     (ERL_NIF_SELECT_STOP_SCHEDULED is not returned there either);
//   - an error or hang-up on the fd makes every armed direction ready, unless ERROR is
//     armed (ERL_NIF_SELECT_ERROR), which then gets it.
#pragma once

#include <erl_nif.h>

#include "vm/term.hpp"

namespace beam {
class VM;
class Process;
}

namespace beam::nif {

class ResourceObject;

struct SelectCall {
    int fd;
    int mode;               // enum ErlNifSelectFlags
    ResourceObject* obj;
    Term recipient;         // for READ/WRITE/ERROR
    Term msg;               // the Ref, or the custom message (ERL_NIF_SELECT_CUSTOM_MSG)
    Process* caller;        // the calling process, if any (a steal's error report)
};

// enif_select_x's result: a non-negative set of ERL_NIF_SELECT_* result bits, or INT_MIN
// with the failure's bits.
int fd_select(VM& vm, const SelectCall& call);

}  // namespace beam::nif

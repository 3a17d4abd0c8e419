// erts_internal:dist_spawn_request/4 (dist/spawn_remote.cpp).
#pragma once

#include "vm/term.hpp"

namespace beam {
class Process;
namespace dist {

// Sends SPAWN_REQUEST for M:F(Args) (`mfa` = {M, F, Args}) to `node` with the caller's
// options; the answer arrives later as {ReplyTag, ReqId, ok | error, Pid | Reason}. Returns
// ReqId, or {ReqId, MonitorAsked} for spawn_opt/5 (`as_spawn_opt`), or the atom badarg.
Term spawn_request(Process* p, Term node, Term mfa, Term opts, bool as_spawn_opt);

// spawn_request_abandon/1 of a request to another node: true if it was still waiting for its
// reply (which is then dropped; a child it made with a link is told `abandoned`).
bool abandon_spawn(Process* p, Term req_id);

}  // namespace dist
}  // namespace beam

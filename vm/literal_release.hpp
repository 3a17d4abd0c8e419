// Freeing a literal area that processes may still point into (a persistent term erased or
// replaced): as erts' literal area collector, every process holding a term of the area gets it
// copied onto its own heap (a collection that moves it, vm/gc.hpp garbage_collect_literals),
// then the area is freed. Messages, ETS objects and timers hold copies, never the area.
#pragma once

#include <memory>

#include "vm/heap.hpp"
#include "vm/process.hpp"

namespace beam {

// `self` is scheduled out with x0..x(live-1) live (its system tasks run it, scheduler/signals.hpp)
// or exiting: it is looked at in place, every other process while borrowed from the schedulers.
// The area is freed unless some process could not be looked at (busy in a dirty NIF or in a
// long native call all along): then it is kept for good with the persistent terms' retained
// areas, as a purge keeps code it could not check.
void release_literal_area(Process* self, Term* x, unsigned live, std::unique_ptr<LiteralArea> area);

}  // namespace beam

// Receive markers: OTP 25's `recv_marker_*` instructions, which let a receive that waits for a
// fresh reference start after the messages that were queued before the reference was made.
//
// erlc emits them around make_ref/0, monitor/2,3, spawn_request and friends:
//
//     recv_marker_reserve Y      Y := a marker at the end of the mailbox (or 'undefined')
//     call_ext make_ref/0        the reference cannot be in any message queued before this
//     recv_marker_bind Y, X0     the marker is now known by the reference
//     ...
//     recv_marker_use Ref        the receive starts scanning at the marker
//     loop_rec ...               (matching patterns that contain Ref)
//     recv_marker_clear Ref      after the receive; the slot is free again
//
// Skipping is safe whatever happens in between: a message before the marker was queued before
// the reference existed, so it cannot contain it. Losing a marker (all slots taken, a clear
// never reached) only costs a scan from the start of the mailbox.
//
// A marker is a mailbox index. Messages are only appended, or removed anywhere by a receive or
// a flush; a removal before a marker moves it down by one (message_removed), so a marker keeps
// pointing at the first message that arrived after it was reserved.
//
// The slots are allocated at the first reserve: most processes never make a reference to wait
// for, and the table (about 400 bytes) was the largest part of an idle process (issue 11).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "vm/process_side_memory.hpp"
#include "vm/term.hpp"

namespace beam {

class RecvMarkers {
public:
    // OTP keeps 8 markers per process (ERTS_RECV_MARKER_BLOCK_SIZE); calls nest rarely deeper.
    static constexpr size_t SLOTS = 8;

    // A new marker at mailbox index `pos`; returns its id (a small integer). When every slot
    // is in use the oldest marker is forgotten.
    Term reserve(size_t pos);
    // Gives the reserved marker `id` the name `ref`; a `ref` that is not a local reference
    // frees the marker (as OTP: it could never be used).
    void bind(Term id, Term ref);
    // The mailbox index of the marker named `ref`, if there is one.
    std::optional<size_t> position(Term ref) const;
    // Frees the marker named `id_or_ref` (a reserve id or a bound reference), if any.
    void clear(Term id_or_ref);

    // The mailbox message at `index` was removed.
    void message_removed(size_t index) {
        if (!table_ || table_->active == 0) return;
        for (Slot& s : table_->slots)
            if (s.state != State::Free && s.pos > index) --s.pos;
    }

private:
    enum class State : uint8_t { Free, Reserved, Bound };
    struct Slot {
        State state = State::Free;
        uint64_t id = 0;      // reserve id; also the slot's age
        Word ref[3] = {};     // the bound reference's id words (Bound only)
        size_t pos = 0;
    };
    Slot* find(Term key);
    const Slot* find(Term key) const;
    void free(Slot& s);

    struct Table {
        Slot slots[SLOTS];
        uint64_t next_id = 0;
        uint32_t active = 0;  // slots not Free
    };
    struct TableDeleter {
        void operator()(Table* t) const;
    };
    std::unique_ptr<Table, TableDeleter> table_;  // null until the first reserve
};

inline void RecvMarkers::TableDeleter::operator()(Table* t) const {
    count_process_side_bytes(-std::ptrdiff_t(sizeof(Table)));
    delete t;
}

}  // namespace beam

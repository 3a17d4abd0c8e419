// Receive markers (see recv_markers.hpp for what they are and why skipping is safe).
#include "vm/recv_markers.hpp"

#include "vm/process_side_memory.hpp"

namespace beam {

namespace {

// A marker is named by a local reference ([hdr Ref arity 3][id0][id1][id2]); its id words
// are kept rather than the term, so the table holds no heap pointer for the GC to move.
bool is_local_ref(Term t) { return is_boxed_sub(t, Sub::Ref); }

bool same_ref_words(const Word a[3], Term ref) {
    const Term* w = boxed_ptr(ref);
    return a[0] == w[1].raw && a[1] == w[2].raw && a[2] == w[3].raw;
}

}  // namespace

Term RecvMarkers::reserve(size_t pos) {
    if (!table_) {
        table_.reset(new Table());
        count_process_side_bytes(std::ptrdiff_t(sizeof(Table)));
    }
    Slot* slot = nullptr;
    for (Slot& s : table_->slots) {
        if (s.state == State::Free) {
            slot = &s;
            break;
        }
        if (!slot || s.id < slot->id) slot = &s;  // none free: the oldest
    }
    if (slot->state == State::Free) ++table_->active;
    slot->state = State::Reserved;
    slot->id = ++table_->next_id;
    slot->pos = pos;
    // Ids stay small integers: 2^59 reservations would take centuries.
    return make_small(SWord(slot->id));
}

RecvMarkers::Slot* RecvMarkers::find(Term key) {
    return const_cast<Slot*>(static_cast<const RecvMarkers*>(this)->find(key));
}

const RecvMarkers::Slot* RecvMarkers::find(Term key) const {
    if (!table_ || table_->active == 0) return nullptr;
    if (is_small(key)) {
        for (const Slot& s : table_->slots)
            if (s.state == State::Reserved && s.id == uint64_t(small_value(key))) return &s;
    } else if (is_local_ref(key)) {
        for (const Slot& s : table_->slots)
            if (s.state == State::Bound && same_ref_words(s.ref, key)) return &s;
    }
    return nullptr;
}

void RecvMarkers::free(Slot& s) {
    s.state = State::Free;
    --table_->active;
}

void RecvMarkers::bind(Term id, Term ref) {
    if (!is_small(id)) return;  // 'undefined': the mailbox was empty, nothing to skip
    Slot* s = find(id);
    if (!s) return;
    if (!is_local_ref(ref)) {
        free(*s);
        return;
    }
    const Term* w = boxed_ptr(ref);
    s->ref[0] = w[1].raw, s->ref[1] = w[2].raw, s->ref[2] = w[3].raw;
    s->state = State::Bound;
}

std::optional<size_t> RecvMarkers::position(Term ref) const {
    if (!is_local_ref(ref)) return std::nullopt;
    const Slot* s = find(ref);
    if (!s) return std::nullopt;
    return s->pos;
}

void RecvMarkers::clear(Term id_or_ref) {
    if (Slot* s = find(id_or_ref)) free(*s);
}

}  // namespace beam

// Heap options of spawn_opt and process_flag (see system_heap_options.hpp).
#include "bifs/system_heap_options.hpp"

#include "bifs/bif_util.hpp"
#include "vm/gc_options.hpp"
#include "vm/map.hpp"

namespace beam {

namespace {

bool size_words(Term v, size_t* out) {
    if (!is_small(v) || small_value(v) < 0) return false;
    *out = size_t(small_value(v));
    return true;
}

bool optional_bool(Term map, Term key, bool* out) {
    const Term* v = map_get(map, key);
    if (!v) return true;
    if (!is_boolean_atom(*v)) return false;
    *out = *v == am::true_;
    return true;
}

}  // namespace

bool parse_heap_option(Term v, size_t floor, size_t* out) {
    size_t words;
    // OTP aborts the whole VM on sizes beyond its series; beamvm refuses them.
    if (!size_words(v, &words) || words > gc::MAX_HEAP_WORDS) return false;
    *out = gc::round_heap_option(words, floor);
    return true;
}

bool parse_max_heap_size(Term v, MaxHeapSize* out) {
    MaxHeapSize m;
    if (is_map(v)) {
        const Term* size = map_get(v, atom("size"));
        if (!size || !size_words(*size, &m.size)) return false;
        if (!optional_bool(v, am::kill, &m.kill) || !optional_bool(v, atom("error_logger"), &m.error_logger))
            return false;
    } else if (!size_words(v, &m.size)) {
        return false;
    }
    *out = m;
    return true;
}

Term max_heap_size_term(Process* p, const MaxHeapSize& m) {
    return map_from_pairs(*p, {{atom("error_logger"), make_bool(m.error_logger)},
                               {am::kill, make_bool(m.kill)},
                               {atom("size"), make_small(SWord(m.size))}});
}

bool parse_fullsweep_after(Term v, uint32_t* out) {
    size_t n;
    if (!size_words(v, &n)) return false;
    *out = uint32_t(n & 0xFFFF);
    return true;
}

bool parse_message_queue_data(Term v, bool* off_heap) {
    if (v != atom("on_heap") && v != atom("off_heap")) return false;
    *off_heap = v == atom("off_heap");
    return true;
}

Term message_queue_data_term(bool off_heap) { return atom(off_heap ? "off_heap" : "on_heap"); }

Term garbage_collection_info(Process* p, const Process* q) {
    Term items[] = {
        make_tuple(*p, {atom("max_heap_size"), max_heap_size_term(p, q->max_heap)}),
        make_tuple(*p, {atom("min_bin_vheap_size"), make_small(SWord(q->min_bin_vheap_size))}),
        make_tuple(*p, {atom("min_heap_size"), make_small(SWord(q->min_heap_size))}),
        make_tuple(*p, {atom("fullsweep_after"), make_small(q->fullsweep_after)}),
        make_tuple(*p, {atom("minor_gcs"), make_small(q->minor_gcs_since_full)}),
    };
    return make_list_from(*p, items, std::size(items));
}

}  // namespace beam

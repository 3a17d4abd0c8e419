// What a process's heap looks like, as OTP's erts_process_gc_info lists it: the value of
// process_info(P, garbage_collection_info) and the body of the garbage_collection trace
// events (gc_minor_start, gc_major_end, ...), which put {wordsize, N} in front.
#include <algorithm>
#include <iterator>

#include "vm/gc.hpp"
#include "vm/heap_offheap.hpp"

namespace beam {

// Off-heap words on the young heap: the whole list's, less the old generation's share.
size_t gc_bin_vheap_words(const Process* q) {
    size_t words = 0;
    for (Term* b = q->offheap; b; b = offheap_next(b)) words += offheap_words(b);
    return words > q->old_vheap_words ? words - q->old_vheap_words : 0;
}

Term gc_info_list(TermAllocator& a, const Process* q) {
    auto pair = [&](const char* k, size_t v) {
        Term* hp = a.alloc(3);
        hp[0] = make_header(Sub::Tuple, 2);
        hp[1] = atom(k);
        hp[2] = make_small(SWord(v));
        return make_boxed(hp);
    };
    size_t vheap_block = q->vheap_limit;
    Term items[] = {
        pair("old_heap_block_size", size_t(q->old_hend - q->old_heap)),
        pair("heap_block_size", size_t(q->hend - q->heap)),
        pair("mbuf_size", q->fragment_words),
        pair("recent_size", size_t(q->high_water ? q->high_water - q->heap : 0)),
        pair("stack_size", size_t(q->hend - q->stop)),
        pair("old_heap_size", size_t(q->old_htop - q->old_heap)),
        pair("heap_size", size_t(q->htop - q->heap)),
        pair("bin_vheap_size", gc_bin_vheap_words(q)),
        pair("bin_vheap_block_size", vheap_block),
        pair("bin_old_vheap_size", q->old_vheap_words),
        pair("bin_old_vheap_block_size", q->old_vheap_limit),
    };
    Term list = NIL;
    for (size_t i = std::size(items); i-- > 0;) list = cons_at(a.alloc(2), items[i], list);
    return list;
}

}  // namespace beam

#include "vm/heap_offheap.hpp"

#include "vm/binary.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {

void offheap_retain(const Term* obj) {
    if (header_sub(offheap_header(obj)) == Sub::RefcBin) reinterpret_cast<BinaryBlob*>(obj[2].raw)->retain();
    else reinterpret_cast<MagicObject*>(obj[4].raw)->retain();
}

size_t offheap_words(const Term* obj) {
    size_t bytes = header_sub(offheap_header(obj)) == Sub::RefcBin ? size_t(obj[1].raw)
                                                                   : reinterpret_cast<MagicObject*>(obj[4].raw)->byte_size();
    return (bytes + sizeof(Term) - 1) / sizeof(Term);
}

void offheap_release(const Term* obj) {
    if (header_sub(offheap_header(obj)) == Sub::RefcBin) reinterpret_cast<BinaryBlob*>(obj[2].raw)->release();
    else reinterpret_cast<MagicObject*>(obj[4].raw)->release();
}

void offheap_release_list(Term* list) {
    for (Term* e = list; e;) {
        Term* next = offheap_next(e);
        offheap_release(e);
        e = next;
    }
}

}  // namespace beam

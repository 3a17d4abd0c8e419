#include "vm/term_magic_ref.hpp"

#include "vm/term_refs.hpp"

namespace beam {

Term make_magic_ref(TermAllocator& a, MagicObject* obj) {
    uint64_t n = next_ref_number();
    Term* hp = a.alloc(MAGIC_REF_WORDS);
    hp[0] = make_header(Sub::Ref, MAGIC_REF_ARITY);
    hp[1] = Term{n & 0x3FFFF};
    hp[2] = Term{(n >> 18) & 0xFFFFFFFF};
    hp[3] = Term{n >> 50};
    hp[4] = Term{reinterpret_cast<Word>(obj)};
    hp[5] = Term{0};
    obj->retain();
    a.link_offheap(hp);
    return make_boxed(hp);
}

}  // namespace beam

// Bit syntax at run time. (Being written; until then each raises a clear error.)
#include "vm/interp_support.hpp"

namespace beam {

Term bs_create_bin(Process* p, Term* x, Term* E, const BsCreateOp* op) {
    raise_not_implemented(p, "bs_create_bin");
    return NON_VALUE;
}

const Word* bs_match(Process* p, Term* x, Term* E, const BsMatchOp* op) {
    raise_not_implemented(p, "bit syntax matching");
    return nullptr;
}

}  // namespace beam

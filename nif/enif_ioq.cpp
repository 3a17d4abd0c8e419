// enif_* I/O vectors and queues. An ErlNifIOVec (laid out by erl_nif.h) lists byte ranges
// (iov) and, beside each, the binary that holds them (ref_bins): here the BinaryBlob an
// ErlNifBinary's ref_bin names. An ErlNifIOQueue is a queue of such ranges, each holding one
// reference to its blob, that a NIF fills from binaries and iovecs and drains from the head
// (erts' erl_io_queue.c in its NIF mode).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "nif/nif_env.hpp"
#include "vm/binary.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;

struct erts_io_queue {
    // The queued ranges are [head, iov.size()); blobs[i] is iov[i]'s blob (one reference).
    std::vector<SysIOVec> iov;
    std::vector<BinaryBlob*> blobs;
    size_t head = 0;
    size_t size = 0;  // bytes queued
};

namespace {

// erts marks an ErlNifIOVec that lives in the caller's struct (its small arrays) so that
// enif_free_iovec leaves the struct alone.
constexpr int IOVEC_PREALLOC = 1 << 0;

// Where a binary term's bytes live: the blob of a refc binary (null for a heap binary) and the
// bit offset of its first byte in that binary's data (binary.hpp's layouts).
struct BinarySource {
    BinaryBlob* blob;
    size_t bit_offset;
};
BinarySource source_of(Term bin) {
    const Term* p = boxed_ptr(bin);
    size_t bit_offset = 0;
    if (header_sub(p[0]) == Sub::SubBin) {
        bit_offset = size_t(p[2].raw);
        p = boxed_ptr(p[1]);
    }
    BinaryBlob* blob = header_sub(p[0]) == Sub::RefcBin ? reinterpret_cast<BinaryBlob*>(p[2].raw) : nullptr;
    return {blob, bit_offset};
}

// What enif_inspect_iovec's first pass finds in at most max_elements list cells.
struct Slice {
    Term start;
    Term end;           // the cell after the last one taken (the tail returned)
    size_t referenced;  // bytes used in place (aligned parts of refc binaries)
    size_t copied;      // bytes copied into one new blob (heap binaries, unaligned parts)
    size_t entries;     // non-empty binaries: each one iov entry (erts would split one longer
                        // than SSIZE_MAX, a size no binary reaches)
};

bool examine(Term list, size_t max_elements, Slice& s) {
    s = {list, list, 0, 0, 0};
    size_t taken = 0;
    Term l = list;
    while (is_list(l)) {
        Term b = head(l);
        if (!is_bitstring(b)) return false;
        BitView v = bit_view(b);
        // erts looks at the trailing bits only of a bitstring with a whole byte in it: <<1:1>>
        // passes as an empty binary, <<1, 1:1>> fails.
        if (size_t n = v.byte_size()) {
            if (!v.whole_bytes()) return false;
            BinarySource src = source_of(b);
            if (!src.blob || (src.bit_offset & 7)) s.copied += n;
            else s.referenced += n;
            ++s.entries;
        }
        l = tail(l);
        if (++taken >= max_elements) break;
    }
    if (!is_list(l) && !is_nil(l)) return false;
    s.end = l;
    return true;
}

// Memory that lives as long as the environment: the bytes of a binary made in it, which the
// environment's heap or area keeps (its terms do not move while a NIF runs).
void* env_memory(ErlNifEnv* env, size_t bytes) {
    uint8_t* data;
    make_binary_uninit(nif::heap(env), bytes, &data);
    return data;
}

// Points the iovec's entries at the slice's bytes. Heap binaries and unaligned sub-binaries
// are copied into one new blob, as erts copies them into one refc binary. With an environment
// the references are the environment's (its terms, and the copy as a binary made in it);
// without one each entry takes a reference of its own, which enif_free_iovec drops.
bool fill(ErlNifEnv* env, const Slice& s, ErlNifIOVec* iov) {
    BinaryBlob* copy = nullptr;
    if (s.copied) {
        try {
            copy = BinaryBlob::create(s.copied);
        } catch (const std::bad_alloc&) {
            return false;
        }
        copy->size = s.copied;
    }
    size_t copy_at = 0, i = 0;
    for (Term l = s.start; l != s.end; l = tail(l)) {
        Term b = head(l);
        BitView v = bit_view(b);
        size_t n = v.byte_size();
        if (!n) continue;
        BinarySource src = source_of(b);
        uint8_t* data;
        BinaryBlob* blob;
        if (src.blob && !(src.bit_offset & 7)) {
            data = const_cast<uint8_t*>(v.bytes());
            blob = src.blob;
        } else {
            data = copy->data + copy_at;
            copy_bits(v.base, v.bit_offset, data, 0, v.bit_size);
            copy_at += n;
            blob = copy;
        }
        iov->iov[i].iov_base = reinterpret_cast<char*>(data);
        iov->iov[i].iov_len = n;
        iov->ref_bins[i] = blob;
        ++i;
    }
    if (env) {
        if (copy) make_binary_from_blob(nif::heap(env), copy);  // the environment's reference
    } else {
        for (size_t k = 0; k < i; ++k) static_cast<BinaryBlob*>(iov->ref_bins[k])->retain();
        if (copy) copy->release();  // the entries hold it now
    }
    return true;
}

BinaryBlob* copy_to_blob(const void* data, size_t n) {
    BinaryBlob* b = BinaryBlob::create(n);
    b->size = n;
    std::memcpy(b->data, data, n);
    return b;
}

}  // namespace

extern "C" {

// Takes the binaries at the head of `list`, at most max_elements of them, as an iovec; *tail
// receives the rest of the list. False if an element is not a binary (bitstrings included) or
// the list is improper. *iov, when given, is the caller's struct, used if the binaries fit its
// small arrays; otherwise a new one is made, owned by `env` or, with env null, by the caller
// (enif_free_iovec).
int enif_inspect_iovec(ErlNifEnv* env, size_t max_elements, ERL_NIF_TERM list, ERL_NIF_TERM* tail_out,
                       ErlNifIOVec** iov) {
    Slice s;
    if (!examine(T(list), max_elements, s)) return 0;
    ErlNifIOVec* v = *iov;
    if (v && s.entries < ERL_NIF_IOVEC_SIZE) {
        v->iov = v->small_iov;
        v->ref_bins = v->small_ref_bin;
        v->flags = IOVEC_PREALLOC;
    } else {
        size_t iov_at = (sizeof(ErlNifIOVec) + 15) & ~size_t(15);
        size_t bins_at = iov_at + ((s.entries * sizeof(SysIOVec) + 15) & ~size_t(15));
        size_t bytes = bins_at + s.entries * sizeof(void*);
        char* base = static_cast<char*>(env ? env_memory(env, bytes) : std::malloc(bytes));
        if (!base) return 0;
        v = reinterpret_cast<ErlNifIOVec*>(base);
        v->iov = reinterpret_cast<SysIOVec*>(base + iov_at);
        v->ref_bins = reinterpret_cast<void**>(base + bins_at);
        v->flags = 0;
    }
    v->size = s.referenced + s.copied;
    v->iovcnt = int(s.entries);
    if (!fill(env, s, v)) {
        if (!env && !(v->flags & IOVEC_PREALLOC)) std::free(v);
        return 0;
    }
    *iov = v;
    *tail_out = N(s.end);
    return 1;
}

// For an iovec made without an environment: drops its references and, unless it is the
// caller's own struct, frees it.
void enif_free_iovec(ErlNifIOVec* iov) {
    for (int i = 0; i < iov->iovcnt; ++i)
        if (auto* b = static_cast<BinaryBlob*>(iov->ref_bins[i])) b->release();
    if (!(iov->flags & IOVEC_PREALLOC)) std::free(iov);
}

ErlNifIOQueue* enif_ioq_create(ErlNifIOQueueOpts opts) {
    if (opts != ERL_NIF_IOQ_NORMAL) return nullptr;
    return new (std::nothrow) ErlNifIOQueue;
}

void enif_ioq_destroy(ErlNifIOQueue* q) {
    for (size_t i = q->head; i < q->blobs.size(); ++i) q->blobs[i]->release();
    delete q;
}

// Queues the iovec's bytes after the first `skip`. As erts does, the skipping advances the
// caller's first partly skipped entry in place; empty entries are not queued; an entry
// without a binary (a NULL ref_bins slot) is copied into one of its own.
int enif_ioq_enqv(ErlNifIOQueue* q, ErlNifIOVec* iov, size_t skip) {
    if (skip > iov->size) return 0;
    if (iov->size == skip) return 1;
    int i = 0;
    do {  // erts' loop runs once even for skip 0, dropping a leading empty entry
        size_t len = iov->iov[i].iov_len;
        if (len <= skip) {
            skip -= len;
            ++i;
        } else {
            iov->iov[i].iov_base = iov->iov[i].iov_base + skip;
            iov->iov[i].iov_len -= skip;
            skip = 0;
        }
    } while (skip > 0);
    size_t added = 0;
    for (; i < iov->iovcnt; ++i) {
        SysIOVec e = iov->iov[i];
        if (e.iov_len == 0) continue;
        auto* blob = static_cast<BinaryBlob*>(iov->ref_bins[i]);
        if (blob) {
            blob->retain();
        } else {
            try {
                blob = copy_to_blob(e.iov_base, e.iov_len);
            } catch (const std::bad_alloc&) {
                return 0;
            }
            e.iov_base = reinterpret_cast<char*>(blob->data);
        }
        q->iov.push_back(e);
        q->blobs.push_back(blob);
        added += e.iov_len;
    }
    q->size += added;
    return 1;
}

// Queues a binary's bytes after the first `skip` and releases the caller's binary, queued or
// not, as erts does.
int enif_ioq_enq_binary(ErlNifIOQueue* q, ErlNifBinary* bin, size_t skip) {
    ErlNifIOVec v{};
    v.iovcnt = 1;
    v.size = bin->size;
    v.iov = v.small_iov;
    v.ref_bins = v.small_ref_bin;
    v.flags = IOVEC_PREALLOC;
    v.iov[0].iov_base = reinterpret_cast<char*>(bin->data);
    v.iov[0].iov_len = bin->size;
    v.ref_bins[0] = bin->ref_bin;
    int ok = enif_ioq_enqv(q, &v, skip);
    enif_release_binary(bin);
    return ok;
}

size_t enif_ioq_size(ErlNifIOQueue* q) { return q->size; }

// Drops `count` bytes from the head; false (and nothing dropped) if fewer are queued.
int enif_ioq_deq(ErlNifIOQueue* q, size_t count, size_t* size) {
    if (count > q->size) return 0;
    q->size -= count;
    while (count > 0) {
        SysIOVec& e = q->iov[q->head];
        if (e.iov_len <= count) {
            count -= e.iov_len;
            q->blobs[q->head]->release();
            ++q->head;
        } else {
            e.iov_base = e.iov_base + count;
            e.iov_len -= count;
            count = 0;
        }
    }
    if (q->head == q->iov.size()) {  // empty: start the arrays over
        q->iov.clear();
        q->blobs.clear();
        q->head = 0;
    } else if (q->head > 64 && q->head * 2 > q->iov.size()) {  // mostly dead entries in front
        q->iov.erase(q->iov.begin(), q->iov.begin() + std::ptrdiff_t(q->head));
        q->blobs.erase(q->blobs.begin(), q->blobs.begin() + std::ptrdiff_t(q->head));
        q->head = 0;
    }
    if (size) *size = q->size;
    return 1;
}

// The queued ranges in order, valid until the queue next changes; null when empty.
SysIOVec* enif_ioq_peek(ErlNifIOQueue* q, int* iovlen) {
    *iovlen = int(q->iov.size() - q->head);
    return *iovlen ? q->iov.data() + q->head : nullptr;
}

// The first queued range as a binary term: a copy up to 64 bytes, else a binary that shares
// the range's blob (erts: a heap binary up to ERL_ONHEAP_BIN_LIMIT, else a refc binary).
int enif_ioq_peek_head(ErlNifEnv* env, ErlNifIOQueue* q, size_t* size, ERL_NIF_TERM* bin_term) {
    if (q->size == 0) return 0;
    const SysIOVec& e = q->iov[q->head];
    if (size) *size = e.iov_len;
    TermAllocator& a = nif::heap(env);
    const auto* data = reinterpret_cast<const uint8_t*>(e.iov_base);
    if (e.iov_len <= HEAP_BIN_LIMIT) {
        *bin_term = N(make_binary(a, data, e.iov_len));
        return 1;
    }
    BinaryBlob* blob = q->blobs[q->head];
    blob->retain();  // the new term's reference
    Term whole = make_binary_from_blob(a, blob);
    *bin_term = N(make_sub_binary(a, whole, size_t(data - blob->data) * 8, e.iov_len * 8));
    return 1;
}

}  // extern "C"

// binary_to_term: the external term format decoder.
//
// Decoding is iterative (an explicit task stack, not recursion), so a deeply nested term from a
// hostile or corrupt input cannot overflow the C stack. Every size field is checked against
// the bytes that remain before anything is allocated: each element of a tuple, list or map
// takes at least one byte, so allocation is bounded by a small multiple of the input size.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>
#include <zlib.h>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/ext_ids.hpp"
#include "vm/ext_seen_atoms.hpp"
#include "vm/ext_term.hpp"
#include "vm/utf8_chars.hpp"
#include "vm/ext_term_tags.hpp"
#include "vm/term_magic_ref.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

namespace beam {

Export* detached_export(Term module, Term function, uint32_t arity) {
    static std::mutex mutex;
    static std::map<std::tuple<Word, Word, uint32_t>, std::unique_ptr<Export>> table;
    std::lock_guard lock(mutex);
    auto& slot = table[{module.raw, function.raw, arity}];
    if (!slot) {
        slot = std::make_unique<Export>();
        slot->module = module;
        slot->function = function;
        slot->arity = arity;
        slot->stub[0] = slot->stub[1] = 0;
        slot->detached = true;
        slot->address.store(slot->stub, std::memory_order_release);
    }
    return slot.get();
}

FunEntry* detached_fun(const FunRef& ref) {
    using Key = std::tuple<Word, uint32_t, uint32_t, uint32_t, std::array<uint8_t, 16>, uint32_t, uint32_t>;
    static std::mutex mutex;
    static std::map<Key, std::unique_ptr<FunEntry>> table;
    std::array<uint8_t, 16> md5;
    std::copy(std::begin(ref.md5), std::end(ref.md5), md5.begin());
    std::lock_guard lock(mutex);
    auto& slot = table[{ref.module.raw, ref.index, ref.new_index, ref.old_uniq, md5, ref.fun_arity, ref.num_free}];
    if (!slot) {
        slot = std::make_unique<FunEntry>();
        slot->module = ref.module;
        slot->function = NIL;
        slot->arity = ref.fun_arity + ref.num_free;
        slot->num_free = ref.num_free;
        slot->index = ref.index;
        slot->new_index = ref.new_index;
        slot->old_uniq = ref.old_uniq;
        std::copy(md5.begin(), md5.end(), slot->md5);
        slot->detached = true;
    }
    return slot.get();
}

namespace {

// deflate cannot do better than about 1032:1; a larger claimed size is corrupt.
constexpr uint64_t MAX_DEFLATE_RATIO = 1032;

class Decoder {
public:
    Decoder(TermAllocator& a, std::span<const uint8_t> in, DecodeOptions opts) : a_(a), in_(in), opts_(opts) {
        tasks_.swap(tls_tasks);
    }
    // The task stack's memory goes back to this thread's spare (a nested decoder, if any,
    // started with an empty one).
    ~Decoder() {
        tasks_.clear();
        tls_tasks.swap(tasks_);
    }

    Result<Term> run() {
        Term root = NIL;
        push_decode(&root, 1);
        // Maps are built after everything is decoded, inner ones first (the order their tasks
        // came in): building one hashes its keys, and a fun key has no entry before the funs
        // are resolved (it crashed binary_to_term of a large map keyed by a closure).
        std::vector<size_t> finish;
        while (!tasks_.empty()) {
            Task& t = tasks_.back();
            if (t.stride == Task::FINISH_MAP) {
                finish.push_back(t.count);
                tasks_.pop_back();
                continue;
            }
            Term* dest = t.dest;
            if (--t.count == 0) tasks_.pop_back();
            else t.dest += t.stride;
            BEAM_TRY_VOID(decode_one(dest));
        }
        // Funs are resolved only once the whole term is decoded, so input that fails to decode
        // never adds fun entries (they live as long as the program).
        for (PendingFun& f : funs_) {
            FunEntry* fe = opts_.resolve_fun ? opts_.resolve_fun(opts_.resolve_ctx, f.ref) : nullptr;
            if (!fe) fe = detached_fun(f.ref);
            f.slot[0] = Term{Word(reinterpret_cast<uintptr_t>(fe))};
        }
        for (size_t m : finish) BEAM_TRY_VOID(finish_map(m));
        return root;
    }
    size_t used() const { return pos_; }

private:
    // Decode `count` terms into dest[0], dest[stride], ...: one task for all the elements of a
    // tuple, list or map (a task per element, and the vector growth of pushing them one by one,
    // were a tenth of decoding). FINISH_MAP as the stride: build map number `count`.
    struct Task {
        static constexpr uint32_t FINISH_MAP = 0;
        Term* dest;
        uint32_t count;
        uint32_t stride;
    };
    void push_decode(Term* dest, size_t count, uint32_t stride = 1) { tasks_.push_back({dest, uint32_t(count), stride}); }
    struct PendingFun {
        FunRef ref;
        Term* slot;  // the closure's FunEntry word
    };
    struct MapJob {
        std::unique_ptr<Term[]> kv;  // k0 v0 k1 v1 ...
        size_t n;
        Term* dest;
        size_t at;
    };

    Error fail(size_t at, std::string_view why) const {
        return make_error(fmt::format("bad external term at byte {}: {}", at, why));
    }
    size_t remaining() const { return in_.size() - pos_; }
    bool u8(uint8_t& v) {
        if (remaining() < 1) return false;
        v = in_[pos_++];
        return true;
    }
    bool u16(uint16_t& v) {
        if (remaining() < 2) return false;
        std::memcpy(&v, in_.data() + pos_, 2);
        v = __builtin_bswap16(v);
        pos_ += 2;
        return true;
    }
    bool u32(uint32_t& v) {
        if (remaining() < 4) return false;
        std::memcpy(&v, in_.data() + pos_, 4);
        v = __builtin_bswap32(v);
        pos_ += 4;
        return true;
    }
    bool u64(uint64_t& v) {
        uint32_t hi, lo;
        if (!u32(hi) || !u32(lo)) return false;
        v = uint64_t(hi) << 32 | lo;
        return true;
    }
    bool take(size_t n, const uint8_t*& p) {
        if (remaining() < n) return false;
        p = in_.data() + pos_;
        pos_ += n;
        return true;
    }

    Result<Term> make_atom_term(size_t at, const uint8_t* p, size_t n, bool utf8) {
        auto key = SeenAtoms::key(p, n, size_t(in_.data() + in_.size() - p), utf8);
        if (Term seen = seen_atoms_.find(key); is_value(seen)) return seen;
        Term a = BEAM_TRY(lookup_atom(at, p, n, utf8));
        seen_atoms_.add(key, a);
        return a;
    }
    Result<Term> lookup_atom(size_t at, const uint8_t* p, size_t n, bool utf8) {
        // ASCII is the same text in both encodings, and the usual case.
        if (n <= MAX_ATOM_CHARS && std::all_of(p, p + n, [](uint8_t c) { return c < 0x80; }))
            return to_atom(at, {reinterpret_cast<const char*>(p), n});
        std::string s;
        if (utf8) {
            size_t chars = 0;
            if (!utf8_chars(p, n, chars)) return fail(at, "atom is not valid UTF-8");
            if (chars > MAX_ATOM_CHARS) return fail(at, "atom too long");
            s.assign(reinterpret_cast<const char*>(p), n);
        } else {
            if (n > MAX_ATOM_CHARS) return fail(at, "atom too long");
            for (size_t i = 0; i < n; ++i) {
                uint8_t ch = p[i];
                if (ch < 0x80) s += char(ch);
                else { s += char(0xC0 | ch >> 6); s += char(0x80 | (ch & 0x3F)); }
            }
        }
        return to_atom(at, s);
    }
    Result<Term> to_atom(size_t at, std::string_view utf8) {
        auto found = opts_.safe ? AtomTable::instance().find(utf8) : AtomTable::instance().intern(utf8);
        if (!found) return fail(at, opts_.safe ? "unknown atom in safe mode" : "atom table full");
        return *found;
    }

    // The atom encodings; `tag` has already been read.
    Result<Term> atom_body(size_t at, uint8_t tag) {
        const uint8_t* p;
        uint16_t n16 = 0;
        uint8_t n8 = 0;
        switch (tag) {
        case ext::ATOM:
        case ext::ATOM_UTF8:
            if (!u16(n16) || !take(n16, p)) return fail(at, "truncated atom");
            return make_atom_term(at, p, n16, tag == ext::ATOM_UTF8);
        case ext::SMALL_ATOM:
        case ext::SMALL_ATOM_UTF8:
            if (!u8(n8) || !take(n8, p)) return fail(at, "truncated atom");
            return make_atom_term(at, p, n8, tag == ext::SMALL_ATOM_UTF8);
        case ext::ATOM_CACHE_REF:
            if (!u8(n8)) return fail(at, "truncated atom cache reference");
            if (n8 >= opts_.atom_cache.size())
                return fail(at, fmt::format("atom cache index {} beyond the {} atoms of the header", n8,
                                            opts_.atom_cache.size()));
            return opts_.atom_cache[n8];
        default:
            return fail(at, "expected an atom");
        }
    }
    Result<Term> read_atom() {
        size_t at = pos_;
        uint8_t tag = 0;
        if (!u8(tag)) return fail(at, "truncated atom");
        return atom_body(at, tag);
    }
    // erts 25 accepts creations 0..3 in the old 8-bit fields (PID_EXT, PORT_EXT, REFERENCE_EXT,
    // NEW_REFERENCE_EXT): ERTS_MAX_TINY_CREATION.
    static bool tiny_creation(uint8_t c) { return c <= 3; }
    bool is_this_node(Term node, uint32_t creation) const {
        return (opts_.node ? *opts_.node : not_alive_identity()).is_this(node, creation);
    }

    // OldIndex and OldUniq of NEW_FUN_EXT: integers that OTP writes as SMALL_INTEGER or INTEGER.
    Result<uint32_t> fun_u32(size_t at) {
        uint8_t tag = 0, v8 = 0;
        uint32_t v32 = 0;
        if (!u8(tag)) return fail(at, "truncated fun");
        if (tag == ext::SMALL_INTEGER && u8(v8)) return uint32_t(v8);
        if (tag == ext::INTEGER && u32(v32)) {
            // OTP accepts a negative one and prints it; only a forged fun carries one.
            if (int32_t(v32) < 0) return fail(at, "funs with a negative OldIndex or OldUniq are not supported");
            return v32;
        }
        return fail(at, "bad fun OldIndex or OldUniq");
    }
    Result<void> new_fun(size_t at, Term* dest);
    Result<void> decode_one(Term* dest);
    Result<void> finish_map(size_t idx);
    Result<Term> big(size_t at, size_t nbytes);
    Result<Term> reference(size_t at, uint8_t tag);
    Result<Term> pid(size_t at, uint8_t tag);
    Result<Term> port(size_t at, uint8_t tag);

    // The task stack of the last decoder that ran on this thread, kept for the next one:
    // a fresh vector and its growth were the largest allocation of a node receiving small
    // distribution messages.
    static thread_local std::vector<Task> tls_tasks;

    TermAllocator& a_;
    std::span<const uint8_t> in_;
    DecodeOptions opts_;
    size_t pos_ = 0;
    std::vector<Task> tasks_;
    std::vector<MapJob> maps_;
    std::vector<PendingFun> funs_;
    SeenAtoms seen_atoms_;
};

thread_local std::vector<Decoder::Task> Decoder::tls_tasks;

Result<Term> Decoder::big(size_t at, size_t nbytes) {
    uint8_t sign = 0;
    const uint8_t* p;
    if (!u8(sign) || !take(nbytes, p)) return fail(at, "truncated bignum");
    // OTP refuses a bignum of more digit bytes than its largest (BIG_ARITY_MAX digits),
    // leading zeros included.
    if (nbytes > MAX_BIG_LIMBS * sizeof(uint64_t)) return fail(at, "bignum beyond the system limit");
    // OTP reads any non-zero sign byte as negative.
    // The usual bignum fits the buffer on the stack; a vector was an allocation per bignum.
    constexpr size_t ON_STACK = 16;
    size_t n = std::max<size_t>(1, (nbytes + 7) / 8);
    uint64_t small[ON_STACK];
    std::vector<uint64_t> large;
    uint64_t* limbs = small;
    if (n > ON_STACK) large.resize(n), limbs = large.data();
    limbs[n - 1] = 0;
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(limbs, p, nbytes);  // least significant byte first, as the limbs' memory
    } else {
        for (size_t i = 0; i < n; ++i) limbs[i] = 0;
        for (size_t i = 0; i < nbytes; ++i) limbs[i / 8] |= uint64_t(p[i]) << (8 * (i % 8));
    }
    return make_integer_limbs(a_, limbs, n, sign != 0);
}

// REFERENCE_EXT: Node ID Creation8; NEW_REFERENCE_EXT: Len Node Creation8 ID*Len;
// NEWER_REFERENCE_EXT: Len Node Creation32 ID*Len. As erts: the first id is below 2^18 except in
// an external NEWER_REFERENCE_EXT; a local reference has at most 3 ids (missing ones are 0).
Result<Term> Decoder::reference(size_t at, uint8_t tag) {
    uint16_t len = 1;
    if (tag != ext::REFERENCE && !u16(len)) return fail(at, "truncated reference");
    Term node = BEAM_TRY(read_atom());
    uint32_t creation = 0;
    uint8_t creation8 = 0;
    uint32_t ids[EXT_REF_MAX_IDS] = {};
    if (tag == ext::REFERENCE) {  // the one id word comes before the creation
        if (!u32(ids[0]) || !u8(creation8)) return fail(at, "truncated reference");
    } else if (!(tag == ext::NEWER_REFERENCE ? u32(creation) : u8(creation8))) {
        return fail(at, "truncated reference");
    }
    if (tag != ext::NEWER_REFERENCE) {
        if (!tiny_creation(creation8)) return fail(at, "reference creation above 3 in an 8-bit field");
        creation = creation8;
    }
    if (len < 1 || len > EXT_REF_MAX_IDS) return fail(at, fmt::format("reference with {} id words", len));
    for (uint16_t i = tag == ext::REFERENCE ? 1 : 0; i < len; ++i)
        if (!u32(ids[i])) return fail(at, "truncated reference");
    bool local = is_this_node(node, creation);
    if ((local || tag != ext::NEWER_REFERENCE) && ids[0] > 0x3FFFF) return fail(at, "reference number out of range");
    if (!local) return make_ext_ref(a_, node, creation, std::span<const uint32_t>(ids, len));
    if (len > 3) return fail(at, "reference of this node with more than 3 id words");
    uint64_t n = uint64_t(ids[0]) | (uint64_t(ids[1]) << 18) | (uint64_t(ids[2]) << 50);
    if (Term magic = revive_magic_ref(a_, n); is_value(magic)) return magic;
    Term* hp = a_.alloc(REF_WORDS);
    hp[0] = make_header(Sub::Ref, 3);
    for (int i = 0; i < 3; ++i) hp[1 + i] = Term{ids[i]};
    return make_boxed(hp);
}

// PID_EXT / NEW_PID_EXT: Node ID Serial Creation (8 or 32 bits).
Result<Term> Decoder::pid(size_t at, uint8_t tag) {
    Term node = BEAM_TRY(read_atom());
    uint32_t id, serial, creation = 0;
    uint8_t creation8 = 0;
    if (!u32(id) || !u32(serial) || !(tag == ext::NEW_PID ? u32(creation) : u8(creation8)))
        return fail(at, "truncated pid");
    if (tag == ext::PID) {
        if (!tiny_creation(creation8)) return fail(at, "pid creation above 3 in an 8-bit field");
        creation = creation8;
    }
    if (!is_this_node(node, creation)) return make_ext_pid(a_, node, creation, id, serial);
    // A local pid holds a 15-bit number and a 13-bit serial (OTP 25 refuses larger ones).
    if (id > 0x7FFF || serial > 0x1FFF) return fail(at, "pid number out of range");
    return make_local_pid(uint64_t(id) | uint64_t(serial) << ext::PID_SERIAL_SHIFT);
}

// PORT_EXT: Node ID32 Creation8; NEW_PORT_EXT: Node ID32 Creation32; V4_PORT_EXT: Node ID64 Creation32.
Result<Term> Decoder::port(size_t at, uint8_t tag) {
    Term node = BEAM_TRY(read_atom());
    uint64_t id = 0;
    uint32_t id32 = 0, creation = 0;
    uint8_t creation8 = 0;
    bool ok = tag == ext::V4_PORT    ? u64(id) && u32(creation)
              : tag == ext::NEW_PORT ? u32(id32) && u32(creation)
                                     : u32(id32) && u8(creation8);
    if (!ok) return fail(at, "truncated port");
    if (tag != ext::V4_PORT) id = id32;
    if (tag == ext::PORT) {
        if (!tiny_creation(creation8)) return fail(at, "port creation above 3 in an 8-bit field");
        creation = creation8;
    }
    if (!is_this_node(node, creation)) return make_ext_port(a_, node, creation, id);
    if (id >> 28) return fail(at, "port number out of range");  // 28 bits on a local node (OTP 25)
    return make_local_port(id);
}

Result<void> Decoder::decode_one(Term* dest) {
    size_t at = pos_;
    uint8_t tag = 0;
    if (!u8(tag)) return fail(at, "truncated term");
    switch (tag) {
    case ext::SMALL_INTEGER: {
        uint8_t v;
        if (!u8(v)) return fail(at, "truncated integer");
        *dest = make_small(v);
        return {};
    }
    case ext::INTEGER: {
        uint32_t v;
        if (!u32(v)) return fail(at, "truncated integer");
        *dest = make_small(int32_t(v));
        return {};
    }
    case ext::FLOAT: {  // "%.20e" text in a 31-byte NUL-padded field
        const uint8_t* p;
        if (!take(31, p)) return fail(at, "truncated float");
        char buf[32];
        std::memcpy(buf, p, 31);
        buf[31] = 0;
        char* end = nullptr;
        double d = std::strtod(buf, &end);
        if (end == buf || !std::isfinite(d)) return fail(at, "bad float text");
        *dest = make_float_at(a_.alloc(FLOAT_WORDS), d);
        return {};
    }
    case ext::NEW_FLOAT: {
        uint64_t bits;
        if (!u64(bits)) return fail(at, "truncated float");
        double d;
        std::memcpy(&d, &bits, sizeof d);
        if (!std::isfinite(d)) return fail(at, "float is not finite");
        *dest = make_float_at(a_.alloc(FLOAT_WORDS), d);
        return {};
    }
    case ext::ATOM: case ext::SMALL_ATOM: case ext::ATOM_UTF8: case ext::SMALL_ATOM_UTF8: case ext::ATOM_CACHE_REF:
        *dest = BEAM_TRY(atom_body(at, tag));
        return {};
    case ext::SMALL_TUPLE: case ext::LARGE_TUPLE: {
        uint32_t n = 0;
        uint8_t n8 = 0;
        if (tag == ext::SMALL_TUPLE ? !u8(n8) : !u32(n)) return fail(at, "truncated tuple");
        if (tag == ext::SMALL_TUPLE) n = n8;
        if (n > remaining()) return fail(at, "tuple arity exceeds the input");
        Term* hp = a_.alloc(1 + n);
        hp[0] = make_header(Sub::Tuple, n);
        for (uint32_t i = 0; i < n; ++i) hp[1 + i] = NIL;
        if (n) push_decode(hp + 1, n);
        *dest = make_boxed(hp);
        return {};
    }
    case ext::NIL:
        *dest = NIL;
        return {};
    case ext::STRING: {
        uint16_t n;
        const uint8_t* p;
        if (!u16(n) || !take(n, p)) return fail(at, "truncated string");
        Term list = NIL;
        Term* hp = n ? a_.alloc(2 * size_t(n)) : nullptr;
        for (size_t i = n; i > 0; --i) list = cons_at(hp + 2 * (i - 1), make_small(p[i - 1]), list);
        *dest = list;
        return {};
    }
    case ext::LIST: {
        uint32_t n;
        if (!u32(n)) return fail(at, "truncated list");
        if (n > remaining()) return fail(at, "list length exceeds the input");
        if (n == 0) {  // only a tail follows
            push_decode(dest, 1);
            return {};
        }
        Term* hp = a_.alloc(2 * size_t(n));
        for (size_t i = 0; i < n; ++i) {
            hp[2 * i] = NIL;
            hp[2 * i + 1] = i + 1 < n ? make_list(hp + 2 * (i + 1)) : NIL;
        }
        push_decode(&hp[2 * (n - 1) + 1], 1);  // the tail comes last
        push_decode(hp, n, 2);
        *dest = make_list(hp);
        return {};
    }
    case ext::BINARY: {
        uint32_t n;
        const uint8_t* p;
        if (!u32(n) || !take(n, p)) return fail(at, "truncated binary");
        *dest = make_binary(a_, p, n);
        return {};
    }
    case ext::BIT_BINARY: {
        uint32_t n;
        uint8_t bits;
        const uint8_t* p;
        if (!u32(n) || !u8(bits) || !take(n, p)) return fail(at, "truncated bitstring");
        if (bits < 1 || bits > 8 || n == 0) return fail(at, "bad bitstring trailing bit count");
        Term bin = make_binary(a_, p, n);
        *dest = bits == 8 ? bin : make_sub_binary(a_, bin, 0, (size_t(n) - 1) * 8 + bits);
        return {};
    }
    case ext::SMALL_BIG: {
        uint8_t n;
        if (!u8(n)) return fail(at, "truncated bignum");
        *dest = BEAM_TRY(big(at, n));
        return {};
    }
    case ext::LARGE_BIG: {
        uint32_t n;
        if (!u32(n)) return fail(at, "truncated bignum");
        if (n > remaining()) return fail(at, "bignum size exceeds the input");
        *dest = BEAM_TRY(big(at, n));
        return {};
    }
    case ext::MAP: {
        uint32_t n;
        if (!u32(n)) return fail(at, "truncated map");
        if (uint64_t(n) * 2 > remaining()) return fail(at, "map size exceeds the input");
        if (n > UINT32_MAX / 2) return fail(at, "map of more than 2^31 pairs");  // its task's count
        MapJob job{std::make_unique<Term[]>(2 * size_t(n)), n, dest, at};
        for (size_t i = 0; i < 2 * size_t(n); ++i) job.kv[i] = NIL;
        Term* kv = job.kv.get();
        maps_.push_back(std::move(job));
        tasks_.push_back({nullptr, uint32_t(maps_.size() - 1), Task::FINISH_MAP});
        if (n) push_decode(kv, 2 * size_t(n));
        return {};
    }
    case ext::NEW_PID: case ext::PID:
        *dest = BEAM_TRY(pid(at, tag));
        return {};
    case ext::NEW_PORT: case ext::PORT: case ext::V4_PORT:
        *dest = BEAM_TRY(port(at, tag));
        return {};
    case ext::NEWER_REFERENCE: case ext::NEW_REFERENCE: case ext::REFERENCE:
        *dest = BEAM_TRY(reference(at, tag));
        return {};
    case ext::EXPORT: {
        Term m = BEAM_TRY(read_atom());
        Term f = BEAM_TRY(read_atom());
        // The arity is an integer term: OTP writes SMALL_INTEGER and also reads INTEGER.
        uint8_t t, arity = 0;
        uint32_t arity32 = 0;
        if (!u8(t)) return fail(at, "truncated export");
        if (t == ext::SMALL_INTEGER ? !u8(arity) : t != ext::INTEGER || !u32(arity32) || arity32 > 255)
            return fail(at, "bad export arity");
        if (t == ext::INTEGER) arity = uint8_t(arity32);
        Export* e = opts_.resolve_export ? opts_.resolve_export(opts_.resolve_ctx, m, f, arity)
                                         : detached_export(m, f, arity);
        if (!e) return fail(at, "export cannot be resolved");
        Term* hp = a_.alloc(EXPORT_FUN_WORDS);
        hp[0] = make_header(Sub::Export, 1);
        hp[1] = Term{Word(reinterpret_cast<uintptr_t>(e))};
        *dest = make_boxed(hp);
        return {};
    }
    case ext::NEW_FUN:
        return new_fun(at, dest);
    case ext::FUN:  // OTP 23 and later refuse it too
        return fail(at, "FUN_EXT (pre-R8 funs) is not accepted");
    case ext::COMPRESSED:
        return fail(at, "compressed term nested inside a term");
    default:
        return fail(at, fmt::format("unknown tag {}", tag));
    }
}

// NEW_FUN_EXT: Size Arity Uniq[16] Index NumFree Module OldIndex OldUniq Pid FreeVars...
// OTP 25 ignores Size, and decodes Pid as any term (it is only stored), so do we.
Result<void> Decoder::new_fun(size_t at, Term* dest) {
    uint32_t size, index, num_free;
    uint8_t arity;
    const uint8_t* uniq;
    if (!u32(size) || !u8(arity) || !take(16, uniq) || !u32(index) || !u32(num_free)) return fail(at, "truncated fun");
    Term module = BEAM_TRY(read_atom());
    uint32_t old_index = BEAM_TRY(fun_u32(at));
    uint32_t old_uniq = BEAM_TRY(fun_u32(at));
    if (num_free >= remaining()) return fail(at, "fun free variable count exceeds the input");
    if (num_free > 255) return fail(at, "fun with more than 255 free variables");  // as erts (MAX_ARG)
    FunRef ref{module, old_index, index, old_uniq, {}, arity, num_free};
    std::copy(uniq, uniq + 16, ref.md5);
    Term* hp = a_.alloc(FUN_HEADER_WORDS + size_t(num_free));
    Term fun = make_fun_at(hp, nullptr, NIL, num_free);
    for (size_t i = 0; i < num_free; ++i) fun_free_vars(fun)[i] = NIL;
    funs_.push_back({ref, hp + 1});
    if (num_free) push_decode(fun_free_vars(fun), num_free);
    push_decode(hp + 2, 1);  // the creator comes first
    *dest = fun;
    return {};
}

Result<void> Decoder::finish_map(size_t idx) {
    MapJob& job = maps_[idx];
    std::vector<std::pair<Term, Term>> pairs;
    pairs.reserve(job.n);
    for (size_t i = 0; i < job.n; ++i) pairs.emplace_back(job.kv[2 * i], job.kv[2 * i + 1]);
    Term m = map_from_pairs(a_, std::move(pairs));
    if (map_size(m) != job.n) return fail(job.at, "duplicate map key");
    *job.dest = m;
    job.kv.reset();
    return {};
}

}  // namespace

Result<Term> decode_external(TermAllocator& a, std::span<const uint8_t> bytes, size_t* used, DecodeOptions opts) {
    if (opts.versionless) {
        Decoder d(a, bytes, opts);
        Term t = BEAM_TRY(d.run());
        if (used) *used = d.used();
        return t;
    }
    if (bytes.empty() || bytes[0] != ext::VERSION)
        return make_error("bad external term at byte 0: missing version byte 131");
    if (bytes.size() >= 2 && bytes[1] == ext::COMPRESSED) {
        if (bytes.size() < 6) return make_error("bad external term at byte 1: truncated compressed header");
        uint32_t size = uint32_t(bytes[2]) << 24 | uint32_t(bytes[3]) << 16 | uint32_t(bytes[4]) << 8 | bytes[5];
        std::span<const uint8_t> packed = bytes.subspan(6);
        if (size == 0 || size > packed.size() * MAX_DEFLATE_RATIO + 64)
            return make_error(fmt::format("bad external term at byte 2: impossible uncompressed size {}", size));
        std::vector<uint8_t> plain(size);
        uLongf out_len = size;
        uLong in_len = packed.size();
        int rc = uncompress2(plain.data(), &out_len, packed.data(), &in_len);
        if (rc != Z_OK || out_len != size) return make_error("bad external term at byte 6: bad zlib data");
        Decoder d(a, plain, opts);
        Term t = BEAM_TRY(d.run());
        if (d.used() != size) return make_error("bad external term: bytes left over inside compressed data");
        if (used) *used = 6 + in_len;
        return t;
    }
    Decoder d(a, bytes.subspan(1), opts);
    Term t = BEAM_TRY(d.run());
    if (used) *used = 1 + d.used();
    return t;
}

}  // namespace beam

// Binaries across collections: heap binaries move with their bytes, RefcBins stay on the
// off-heap list while reachable and drop their blob reference when not.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "tests/unit/gc_test_util.hpp"
#include "vm/binary.hpp"
#include "vm/gc.hpp"

using namespace beam;
using namespace beam::gctest;

namespace {

BinaryBlob* blob_of(Term refc) { return reinterpret_cast<BinaryBlob*>(boxed_ptr(refc)[2].raw); }

std::string bytes_of(Term bin) {
    BitView v = bit_view(bin);
    REQUIRE(v.byte_aligned());
    return std::string(reinterpret_cast<const char*>(v.bytes()), v.byte_size());
}

size_t offheap_length(const Process& p) {
    size_t n = 0;
    for (Term* e = p.offheap; e; e = reinterpret_cast<Term*>(e[3].raw)) ++n;
    return n;
}

const std::string LONG(200, 'z');

}  // namespace

TEST_CASE("gc: a heap binary moves with its bytes", "[gc][binary]") {
    auto p = new_process();
    std::vector<Term> x{make_binary(*p, "hello, world")};
    REQUIRE(header_sub(box_header(x[0])) == Sub::HeapBin);
    int_list(*p, 1, 100);
    gc(*p, x);
    gc(*p, x);
    CHECK(in_old(*p, x[0]));
    CHECK(bytes_of(x[0]) == "hello, world");
}

TEST_CASE("gc: a reachable RefcBin keeps its blob and stays on the list", "[gc][binary]") {
    auto p = new_process();
    std::vector<Term> x{make_binary(*p, LONG)};
    REQUIRE(header_sub(box_header(x[0])) == Sub::RefcBin);
    BinaryBlob* blob = blob_of(x[0]);
    blob->retain();  // our own reference, to watch the count after the process lets go
    REQUIRE(blob->refc.load() == 2);

    gc(*p, x);
    CHECK(blob->refc.load() == 2);
    CHECK(blob_of(x[0]) == blob);
    CHECK(p->offheap == boxed_ptr(x[0]));
    CHECK(offheap_length(*p) == 1);
    CHECK(bytes_of(x[0]) == LONG);

    gc(*p, x);  // promoted: the list follows it into the old heap
    CHECK(in_old(*p, x[0]));
    CHECK(p->offheap == boxed_ptr(x[0]));
    CHECK(blob->refc.load() == 2);

    x.clear();
    gc(*p, x);  // dead in the old heap: kept until a full sweep, as OTP does
    CHECK(blob->refc.load() == 2);
    gc_full(*p, x);
    CHECK(blob->refc.load() == 1);
    CHECK(p->offheap == nullptr);
    blob->release();
}

TEST_CASE("gc: an unreachable young RefcBin is released at once", "[gc][binary]") {
    auto p = new_process();
    Term dead = make_binary(*p, LONG);
    BinaryBlob* blob = blob_of(dead);
    blob->retain();
    std::vector<Term> x{make_small(1)};
    gc(*p, x);
    CHECK(blob->refc.load() == 1);
    CHECK(p->offheap == nullptr);
    blob->release();
}

TEST_CASE("gc: many RefcBins, half of them reachable", "[gc][binary]") {
    auto p = new_process();
    std::vector<BinaryBlob*> blobs;
    Term keep = NIL;
    for (int i = 0; i < 1000; ++i) {
        Term b = make_binary(*p, std::string(100, char('a' + i % 26)));
        blobs.push_back(blob_of(b));
        blobs.back()->retain();
        if (i % 2 == 0) keep = cons(*p, b, keep);
    }
    std::vector<Term> x{keep};
    gc(*p, x);
    size_t live = 0;
    for (int i = 0; i < 1000; ++i) {
        uint64_t want = (i % 2 == 0) ? 2 : 1;
        live += blobs[i]->refc.load() == want;
    }
    CHECK(live == 1000);
    CHECK(offheap_length(*p) == 500);
    int i = 998;
    for (Term l = x[0]; is_list(l); l = tail(l), i -= 2) CHECK(bytes_of(head(l)) == std::string(100, char('a' + i % 26)));
    x.clear();
    p.reset();  // the process's references go with it
    for (BinaryBlob* b : blobs) {
        CHECK(b->refc.load() == 1);
        b->release();
    }
}

TEST_CASE("gc: sub-binaries keep their underlying binary alive", "[gc][binary]") {
    auto p = new_process();
    std::string text;
    for (int i = 0; i < 100; ++i) text += char('0' + i % 10);
    Term refc = make_binary(*p, text);
    BinaryBlob* blob = blob_of(refc);
    blob->retain();
    Term heap_bin = make_binary(*p, "abcdefgh");
    std::vector<Term> x{make_sub_binary(*p, refc, 8 * 10, 8 * 5), make_sub_binary(*p, heap_bin, 8 * 2, 8 * 3)};
    REQUIRE(header_sub(box_header(x[0])) == Sub::SubBin);
    int_list(*p, 1, 100);
    gc(*p, x);
    gc_full(*p, x);
    CHECK(bytes_of(x[0]) == "01234");
    CHECK(bytes_of(x[1]) == "cde");
    CHECK(blob->refc.load() == 2);
    CHECK(offheap_length(*p) == 1);
    x[0] = NIL;
    gc_full(*p, x);
    CHECK(blob->refc.load() == 1);
    CHECK(bytes_of(x[1]) == "cde");
    blob->release();
}

TEST_CASE("gc: a match state's binary is a root, its positions are raw", "[gc][binary]") {
    auto p = new_process();
    Term bin = make_binary(*p, "0123456789");
    Term* ms = p->alloc(4);
    ms[0] = make_header(Sub::MatchState, 3);
    ms[1] = bin;
    // Raw position words chosen to look like a list pointer and a boxed pointer into the heap.
    Term fake_list = make_list(p->heap);
    Term fake_boxed = make_boxed(p->heap);
    ms[2] = fake_list;
    ms[3] = fake_boxed;
    std::vector<Term> x{make_boxed(ms)};
    int_list(*p, 1, 100);
    gc(*p, x);
    Term* m = boxed_ptr(x[0]);
    CHECK(m[0] == make_header(Sub::MatchState, 3));
    CHECK(m[2] == fake_list);
    CHECK(m[3] == fake_boxed);
    CHECK(bytes_of(m[1]) == "0123456789");
    CHECK(in_young(*p, m[1]));
}

TEST_CASE("gc: RefcBins made count in the young virtual heap until the next collection", "[gc][binary]") {
    auto p = new_process();
    std::vector<Term> x{make_binary(*p, LONG)};
    CHECK(p->vheap_words == (LONG.size() + 7) / 8);
    CHECK(!p->gc_due);
    gc(*p, x);
    CHECK(p->vheap_words == 0);
    CHECK(p->vheap_limit == p->min_bin_vheap_size);  // what it kept is far below a quarter
    // Past the limit the next heap check collects.
    p->vheap_limit = 50;
    x.push_back(make_binary(*p, LONG));
    x.push_back(make_binary(*p, LONG));
    CHECK(!p->gc_due);
    x.push_back(make_binary(*p, LONG));  // 75 words
    CHECK(p->gc_due);
}

TEST_CASE("gc: promoted RefcBins fill the old virtual heap; past its limit the next collection is full",
          "[gc][binary]") {
    auto p = new_process();
    std::vector<Term> x{make_binary(*p, LONG), make_binary(*p, LONG), make_binary(*p, LONG)};
    BinaryBlob* blob = blob_of(x[0]);
    blob->retain();
    gc(*p, x);
    CHECK(p->old_vheap_words == 0);
    gc(*p, x);  // promoted
    REQUIRE(in_old(*p, x[0]));
    CHECK(p->old_vheap_words == 3 * ((LONG.size() + 7) / 8));
    // garbage_collection_info reports the counts: 75 promoted, none young.
    Term info = gc_info_list(*p, p.get());
    auto item = [&](const char* key) {
        for (Term l = info; is_list(l); l = tail(l))
            if (tuple_elem(head(l), 0) == atom(key)) return small_value(tuple_elem(head(l), 1));
        return SWord(-1);
    };
    CHECK(item("bin_old_vheap_size") == 75);
    CHECK(item("bin_old_vheap_block_size") == SWord(p->old_vheap_limit));
    CHECK(item("bin_vheap_size") == 0);
    p->old_vheap_limit = 50;  // 75 words are over it
    x.clear();
    gc(*p, x);  // a full sweep, not a minor that would leave them on the old heap
    CHECK(blob->refc.load() == 1);
    CHECK(p->offheap == nullptr);
    CHECK(p->old_heap == nullptr);
    CHECK(p->old_vheap_words == 0);
    CHECK(p->old_vheap_limit == p->min_bin_vheap_size);
    blob->release();
}

TEST_CASE("gc: the off-heap list runs young to old, and a minor stops at the old heap", "[gc][binary]") {
    auto p = new_process();
    auto young_then_old = [&] {
        bool seen_old = false;
        for (Term* e = p->offheap; e; e = reinterpret_cast<Term*>(e[3].raw)) {
            bool old = p->old_heap && e >= p->old_heap && e < p->old_htop;
            if (seen_old && !old) return false;
            seen_old = seen_old || old;
        }
        return true;
    };
    std::vector<Term> x{make_binary(*p, LONG)};  // x[0]: promoted below
    BinaryBlob* a = blob_of(x[0]);
    a->retain();
    gc(*p, x);
    x.push_back(make_binary(*p, LONG));  // x[1]: young at the next collection
    gc(*p, x);
    REQUIRE(in_old(*p, x[0]));
    REQUIRE(in_young(*p, x[1]));
    CHECK(young_then_old());
    CHECK(offheap_length(*p) == 2);
    Term dead = make_binary(*p, LONG);  // linked in front, dropped
    BinaryBlob* d = blob_of(dead);
    d->retain();
    x.push_back(make_binary(*p, LONG));  // x[2]
    gc(*p, x);  // x[1] promoted now, x[2] stays young, dead released
    CHECK(d->refc.load() == 1);
    CHECK(a->refc.load() == 2);
    CHECK(in_old(*p, x[1]));
    CHECK(in_young(*p, x[2]));
    CHECK(offheap_length(*p) == 3);
    CHECK(young_then_old());
    x.erase(x.begin());  // the old one dies: a minor leaves it, a full sweep frees it
    gc(*p, x);
    CHECK(a->refc.load() == 2);
    gc_full(*p, x);
    CHECK(a->refc.load() == 1);
    CHECK(offheap_length(*p) == 2);
    a->release();
    d->release();
}

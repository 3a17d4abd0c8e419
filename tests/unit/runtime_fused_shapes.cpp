// The loader fuses the shapes it should (loader/superinstructions.cpp): each fused instruction
// appears in the threaded code of a module written to contain its shape. The conformance
// modules (float_pow2_fused, bits_start_match_get, superinstructions) check what fused code
// computes; this checks that the fusion happens at all.
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "vm/interp.hpp"
#include "vm/module.hpp"
#include "vm/vm.hpp"

using namespace beam;

namespace {

// The handler words of every variant of the instruction declared as `base` (only its packed
// variants when `packed`).
std::set<Word> handlers_of(std::string_view base, bool packed = false) {
    std::set<Word> out;
    for (size_t i = 0; i < size_t(Op::COUNT); ++i)
        if (instr_meta(Op(i)).base == base && (!packed || instr_meta(Op(i)).packed)) out.insert(handler_word(Op(i)));
    return out;
}

bool contains(const ModuleCode& mc, std::string_view base, bool packed = false) {
    std::set<Word> hs = handlers_of(base, packed);
    REQUIRE(!hs.empty());  // an instruction of that name exists
    for (Word w : mc.code)
        if (hs.count(w)) return true;
    return false;
}

}  // namespace

TEST_CASE("the loader fuses the shapes it is meant to", "[runtime][loader]") {
    std::ifstream in(std::string(RUNTIME_FIXTURE_DIR) + "/fused_shapes.beam", std::ios::binary);
    std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    REQUIRE(!bytes.empty());
    VM vm;
    auto mc = vm.prepare(vm.root(), bytes, "fused_shapes.beam");
    INFO((mc.ok() ? std::string("ok") : mc.error().message));
    REQUIRE(mc.ok());
    for (const char* base : {"bs_start_match_get_u8", "bs_start_match_get_uint_be", "fload_fmul", "fload_fadd",
                             "fload_fsub", "fload_fdiv", "fload2", "test_heap_fstore", "int_div_pow2",
                             "int_rem_pow2", "test_arity_get_two", "loop_rec_tagged_eq", "allocate_move2",
                             "is_tagged_tuple_get", "allocate_move_call", "trim_call",
                             "is_nonempty_list_allocate_move_get_list", "test_arity_get",
                             "is_nonempty_list_get_list_eq", "allocate_move3", "allocate_move4",
                             "test_heap_put_list_return", "is_integer_ge_small", "is_nonempty_list_get_list2",
                             "test_heap_put_list_move_call_only"}) {
        INFO(base);
        CHECK(contains(**mc, base));
    }
    // Registers and small counts packed into one word (tools/gen_instructions.py `pack`).
    for (const char* base : {"test_arity_get_two", "allocate_move2", "is_tagged_tuple_get", "trim_call",
                             "is_nonempty_list_allocate_move_get_list"}) {
        INFO(base);
        CHECK(contains(**mc, base, true));
    }
}

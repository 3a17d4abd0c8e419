// BIFs whose effect is on the process rather than in the result: the process dictionary,
// exceptions, references. Expected values follow erl (see the comments).
#include <catch2/catch.hpp>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "vm/atom_table.hpp"
#include "vm/term_order.hpp"
#include "vm/term_print.hpp"

using namespace beam;

namespace {

Term call(Process& p, std::string_view name, std::initializer_list<Term> args) {
    for (auto family : sequential_bif_families)
        for (const BifSpec& s : family())
            if (s.module == "erlang" && s.name == name && s.arity == args.size()) return s.fn(&p, args.begin());
    FAIL("no BIF erlang:" << name);
    return NON_VALUE;
}

}  // namespace

TEST_CASE("process dictionary follows erl's put/get/erase sequence", "[bifs]") {
    Process p(nullptr, nullptr, make_local_pid(1), 1000);
    Term a = atom("a"), b = atom("b");
    // erl: [put(a,1), put(a,2), get(a), get(b), (put(b,3), get()), get_keys(), get_keys(2),
    //       erase(a), erase(zz), erase(), get()]
    //   => [undefined,1,2,undefined,[{a,2},{b,3}],[a,b],[a],2,undefined,[{b,3}],[]]
    CHECK(call(p, "put", {a, make_small(1)}) == am::undefined);
    CHECK(call(p, "put", {a, make_small(2)}) == make_small(1));
    CHECK(call(p, "get", {a}) == make_small(2));
    CHECK(call(p, "get", {b}) == am::undefined);
    call(p, "put", {b, make_small(3)});
    CHECK(display_string(call(p, "get", {})) == "[{a,2},{b,3}]");
    CHECK(display_string(call(p, "get_keys", {})) == "[a,b]");
    CHECK(display_string(call(p, "get_keys", {make_small(2)})) == "[a]");
    CHECK(call(p, "erase", {a}) == make_small(2));
    CHECK(call(p, "erase", {atom("zz")}) == am::undefined);
    CHECK(display_string(call(p, "erase", {})) == "[{b,3}]");
    CHECK(is_nil(call(p, "get", {})));
}

TEST_CASE("error/2 keeps the arguments for the stack trace; exit and throw set the class", "[bifs]") {
    Process p(nullptr, nullptr, make_local_pid(1), 1000);
    Term args = cons_at(p.alloc(2), make_small(1), NIL);
    CHECK(is_non_value(call(p, "error", {am::badarg, args})));
    CHECK(p.fclass == ErrorClass::Error);
    CHECK(p.fvalue == am::badarg);
    CHECK(p.fargs == args);
    CHECK(is_non_value(call(p, "exit", {am::normal})));
    CHECK(p.fclass == ErrorClass::Exit);
    CHECK(is_non_value(call(p, "throw", {am::ok})));
    CHECK(p.fclass == ErrorClass::Throw);
    CHECK(p.fvalue == am::ok);
}

TEST_CASE("make_ref gives distinct references; unique_integer increases", "[bifs]") {
    Process p(nullptr, nullptr, make_local_pid(1), 1000);
    Term r1 = call(p, "make_ref", {});
    Term r2 = call(p, "make_ref", {});
    CHECK(is_ref(r1));
    CHECK_FALSE(eq_exact(r1, r2));
    CHECK(call(p, "node", {r1}) == am::nonode_at_nohost);
    Term opts = cons_at(p.alloc(2), am::monotonic, NIL);
    Term u1 = call(p, "unique_integer", {opts});
    Term u2 = call(p, "unique_integer", {opts});
    CHECK(compare_terms(u1, u2) < 0);
    CHECK(is_non_value(call(p, "unique_integer", {cons_at(p.alloc(2), atom("bad"), NIL)})));
}

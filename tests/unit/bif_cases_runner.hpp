// Replays BIF calls recorded on erl (tests/unit/data/bifs/*_cases.txt, written by the
// gen_*_cases.erl scripts next to them). One line per call:
//   Module Function Arity ArgsHex Outcome ExpectedHex
// where the hex fields are term_to_binary of the argument list and of the result (Outcome ok)
// or the exception reason (Outcome error/exit/throw). Each call must give erl's answer.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "vm/atom_table.hpp"
#include "vm/ext_term.hpp"
#include "vm/term_order.hpp"
#include "vm/term_print.hpp"

namespace beam::test {

inline Term decode_hex_term(TermAllocator& a, const std::string& hex) {
    std::vector<uint8_t> bytes;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) bytes.push_back(uint8_t(std::stoi(hex.substr(i, 2), nullptr, 16)));
    auto r = decode_external(a, bytes);
    REQUIRE(r.ok());
    return r.value();
}

// The registry (find_bif) lives in beam_runtime with the VM-reaching families; these suites
// look through the sequential families directly.
inline const BifSpec* find_sequential_bif(std::string_view m, std::string_view f, unsigned arity) {
    for (auto family : sequential_bif_families)
        for (const BifSpec& s : family())
            if (s.module == m && s.name == f && s.arity == arity) return &s;
    return nullptr;
}

inline std::string class_name(ErrorClass c) {
    return c == ErrorClass::Error ? "error" : c == ErrorClass::Exit ? "exit" : "throw";
}

// Runs every recorded call in `path`; returns how many there were.
inline size_t run_recorded_bif_cases(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::string line;
    size_t cases = 0;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string mod, fun, args_hex, outcome, expected_hex;
        unsigned arity;
        fields >> mod >> fun >> arity >> args_hex >> outcome >> expected_hex;
        INFO(mod << ":" << fun << "/" << arity << "  " << line);

        Process p(nullptr, nullptr, make_local_pid(1), 1000);
        const BifSpec* bif = find_sequential_bif(mod, fun, arity);
        REQUIRE(bif != nullptr);
        std::vector<Term> args;
        for (Term l = decode_hex_term(p, args_hex); is_list(l); l = tail(l)) args.push_back(head(l));
        REQUIRE(args.size() == arity);
        Term expected = decode_hex_term(p, expected_hex);

        Term got = bif->fn(&p, args.data());
        if (outcome == "ok") {
            REQUIRE(is_value(got));
            INFO("got " << display_string(got) << " expected " << display_string(expected));
            CHECK(eq_exact(got, expected));
        } else {
            REQUIRE(is_non_value(got));
            INFO("got " << class_name(p.fclass) << ":" << display_string(p.fvalue) << " expected " << outcome << ":"
                        << display_string(expected));
            CHECK(class_name(p.fclass) == outcome);
            CHECK(eq_exact(p.fvalue, expected));
        }
        ++cases;
    }
    return cases;
}

}  // namespace beam::test

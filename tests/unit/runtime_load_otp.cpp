// Every module of OTP's erts, kernel, stdlib and compiler applications loads: parse, transform
// and commit, with no instruction left as `not_implemented`.
#include <catch2/catch.hpp>
#include <filesystem>

#include "vm/atom_table.hpp"
#include "vm/interp.hpp"
#include "vm/vm.hpp"

using namespace beam;
namespace fs = std::filesystem;

static size_t count_not_implemented(const ModuleCode& mc) {
    Word ni = handler_word(Op::not_implemented_p);
    size_t n = 0;
    for (Word w : mc.code) n += w == ni;  // may over-count operands equal to the handler: none are
    return n;
}

TEST_CASE("OTP's own modules load through the whole loader", "[runtime][loader]") {
    fs::path lib = fs::path(OTP_STDLIB_EBIN).parent_path().parent_path();
    size_t modules = 0;
    std::vector<std::string> failures, incomplete;
    for (const char* app : {"erts", "kernel", "stdlib", "compiler"}) {
        for (const auto& dir : fs::directory_iterator(lib)) {
            std::string name = dir.path().filename().string();
            if (name.rfind(std::string(app) + "-", 0) != 0) continue;
            if (!fs::exists(dir.path() / "ebin")) continue;
            for (const auto& f : fs::directory_iterator(dir.path() / "ebin")) {
                if (f.path().extension() != ".beam") continue;
                VM vm;
                auto r = vm.load_file(vm.root(), f.path().string());
                ++modules;
                if (!r.ok()) failures.push_back(r.error().message);
                else if (count_not_implemented(*r.value())) incomplete.push_back(f.path().filename().string());
            }
        }
    }
    for (auto& f : failures) UNSCOPED_INFO(f);
    for (auto& f : incomplete) UNSCOPED_INFO("not_implemented instruction in " << f);
    CHECK(modules > 250);  // 260 on OTP 25.2 (erts, kernel, stdlib, compiler)
    CHECK(failures.empty());
    CHECK(incomplete.empty());
}

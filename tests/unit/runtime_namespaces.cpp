// beamvm:namespace_destroy/1 gives back what a namespace took: its processes, its module code
// and its names. An Erlang driver (data/runtime/ns_memory_driver.erl) builds and destroys the
// namespace; this test reads the VM's own counters at the driver's checkpoints.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include "scheduler/signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/vm.hpp"

using namespace beam;
namespace fs = std::filesystem;

namespace {

struct Snapshot {
    size_t processes, code_versions, code_words, namespaces;
};

Snapshot snapshot(VM& vm) {
    return {vm.procs.count(), vm.code_versions(), vm.code_words(), vm.namespaces.live().size()};
}

// Waits (up to 20 s) until the driver has registered `name`; returns its pid.
Term wait_for_checkpoint(VM& vm, const char* name) {
    for (int i = 0; i < 20000; ++i) {
        Term pid = vm.procs.whereis(&vm.root(), atom(name));
        if (pid != am::undefined) return pid;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    FAIL("the driver never reached " << name);
    return am::undefined;
}

// The driver unregisters the name once it goes on; wait for that so the next snapshot does not
// race with it.
void resume(VM& vm, Term pid, const char* name) {
    post_message(vm, pid, atom("continue"));
    while (vm.procs.whereis(&vm.root(), atom(name)) != am::undefined)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

TEST_CASE("namespace_destroy frees the namespace's processes and module code", "[runtime][namespaces]") {
    VM vm;
    vm.add_path_back(BOOT_DIR);
    vm.add_path_back(RUNTIME_FIXTURE_DIR);
    vm.set_otp_root(fs::path(OTP_STDLIB_EBIN).parent_path().parent_path().parent_path().string());
    vm.start(1);
    Process* driver = vm.new_process(vm.root(), 0, NIL);
    vm.setup_call(driver, atom("ns_memory_driver"), atom("main"), NIL);
    vm.start_process(driver);
    ProcessTable::release(driver);

    Term pid = wait_for_checkpoint(vm, "ns_before");
    Snapshot before = snapshot(vm);
    resume(vm, pid, "ns_before");
    wait_for_checkpoint(vm, "ns_during");
    Snapshot during = snapshot(vm);
    resume(vm, pid, "ns_during");
    wait_for_checkpoint(vm, "ns_after");
    Snapshot after = snapshot(vm);
    resume(vm, pid, "ns_after");

    // Reported so that the numbers behind the checks are visible (ctest -V).
    for (auto [label, s] : {std::pair{"before", before}, {"during", during}, {"after", after}})
        WARN(label << ": " << s.processes << " processes, " << s.code_versions << " module versions, "
                   << s.code_words * sizeof(Word) << " bytes of code and literals, " << s.namespaces
                   << " live namespaces");
    CHECK(during.processes == before.processes + 100);
    CHECK(during.code_versions == before.code_versions + 5);
    CHECK(during.code_words > before.code_words);
    CHECK(during.namespaces == before.namespaces + 1);
    CHECK(after.processes == before.processes);
    CHECK(after.code_versions == before.code_versions);
    CHECK(after.code_words == before.code_words);
    CHECK(after.namespaces == before.namespaces);
    CHECK(vm.namespaces.retired_count() == 2);
    // What destroy keeps by design: the export tables, one entry per {M,F,A} referenced there.
    WARN("retired export entries: " << vm.namespaces.retired_export_entries() << " ("
                                    << vm.namespaces.retired_export_entries() * sizeof(Export) << " bytes)");
}

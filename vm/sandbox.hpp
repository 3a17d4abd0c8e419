// What the processes of one namespace may do: the capability set and limits a host (or
// beamvm:namespace_new/2) chooses for a namespace, checked by the natives themselves (issue 26;
// docs/namespaces.md, "Sandbox"). The root's policy allows everything; a new namespace gets the
// policy it is created with and keeps it for its lifetime (set once, before any process of it
// runs, so readers need no lock).
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <string_view>

namespace beam {

// One bit per capability. A native that needs one checks the calling process's namespace and,
// when it is missing, raises error({capability_denied, Name}) with Name the atom below.
enum class Capability : uint32_t {
    File = 1u << 0,        // file system: prim_file natives, the file server, efile
    Port = 1u << 1,        // open_port/2 (drivers, spawn, fd), OS processes
    Network = 1u << 2,     // sockets (inet drivers, socket NIF), distribution
    OsCmd = 1u << 3,       // os:cmd/1,2 (which spawns an OS process)
    CodeLoad = 1u << 4,    // loading, purging, deleting modules; NIF libraries
    Halt = 1u << 5,        // erlang:halt/0,1,2, init:stop
};
inline constexpr uint32_t ALL_CAPABILITIES = 0x3f;

// The atom that names a capability in errors and in beamvm:namespace_new/2's options.
constexpr std::string_view capability_name(Capability c) {
    switch (c) {
        case Capability::File: return "file";
        case Capability::Port: return "port";
        case Capability::Network: return "network";
        case Capability::OsCmd: return "os_cmd";
        case Capability::CodeLoad: return "code_load";
        case Capability::Halt: return "halt";
    }
    return "unknown";
}

struct SandboxPolicy {
    static constexpr uint64_t UNLIMITED = std::numeric_limits<uint64_t>::max();

    uint32_t allowed = ALL_CAPABILITIES;  // Capability bits
    uint64_t max_atoms = UNLIMITED;       // new atoms the namespace's processes may create
    uint64_t max_processes = UNLIMITED;   // processes of the namespace alive at once
    uint64_t max_heap_words = 0;          // each process's max_heap_size (0: none), kill on excess

    bool allows(Capability c) const { return (allowed & uint32_t(c)) != 0; }
    bool unrestricted() const {
        return allowed == ALL_CAPABILITIES && max_atoms == UNLIMITED &&
               max_processes == UNLIMITED && max_heap_words == 0;
    }
};

// What a namespace has used of its limits (counted only when the limit is not UNLIMITED).
struct SandboxUsage {
    std::atomic<uint64_t> atoms_created{0};
    std::atomic<uint64_t> processes_alive{0};
};

}  // namespace beam

// This node's name and creation (placeholder until the extids branch lands).
#pragma once
#include <atomic>
#include <cstdint>
#include "vm/atom_table.hpp"
#include "vm/term.hpp"
namespace beam {
struct NodeIdentity {
    Term name() const { return Term{name_.load(std::memory_order_acquire)}; }
    uint32_t creation() const { return creation_.load(std::memory_order_acquire); }
    void set(Term n, uint32_t c) { creation_.store(c, std::memory_order_release); name_.store(n.raw, std::memory_order_release); }
    bool is_alive() const { return name() != am::nonode_at_nohost; }
private:
    std::atomic<Word> name_{am::nonode_at_nohost.raw};
    std::atomic<uint32_t> creation_{0};
};
}  // namespace beam

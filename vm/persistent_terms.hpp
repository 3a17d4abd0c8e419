// The store behind persistent_term (bifs/system_persistent.cpp): each {Key, Value} is copied,
// sharing kept, into a literal area of its own that no process collection touches, so readers
// share it without copying. Erasing or replacing one hands its area to the literal release
// (vm/literal_release.hpp), which copies the term into the processes still holding it.
//
// The figures of persistent_term:info/0 follow erts' layout, which OTP's tests check: a hash
// table of `table_size` word slots (8 at first, doubled when half full, halved when a quarter
// full) plus, per term, an area header and the words of {Key, Value}.
#pragma once

#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "vm/heap.hpp"

namespace beam {

struct PersistentTerms {
    static constexpr size_t INITIAL_TABLE = 8;
    static constexpr size_t TABLE_HEADER_WORDS = 8;  // erts' HashTable without its slots
    static constexpr size_t AREA_HEADER_WORDS = 2;   // erts' ErtsLiteralArea beyond its first word

    struct Entry {
        Term pair;   // {Key, Value} in `area`: what get/0 lists
        Term key;
        Term value;
        size_t words = 0;  // of the copy
        std::unique_ptr<LiteralArea> area;
    };

    std::shared_mutex mutex;
    std::unordered_multimap<uint32_t, Entry> items;  // by the key's internal hash
    size_t table_size = INITIAL_TABLE;
    size_t entry_words = 0;  // the words of every entry's copy
    // Areas of erased or replaced terms that a process busy in a native call kept while they
    // were released: never freed (as code a purge could not check).
    std::vector<std::unique_ptr<LiteralArea>> retained;
    // One release looks at the processes at a time (erts has one literal area collector); an
    // area released meanwhile is kept in `retained` (vm/literal_release.cpp). Forty processes
    // each erasing in a loop, each looking at every process for its own area, made
    // persistent_term_SUITE:get_all_race stop progressing.
    bool releasing = false;

    // persistent_term:info/0's memory (the caller holds the lock).
    size_t memory_bytes() const {
        return sizeof(Term) * (TABLE_HEADER_WORDS + table_size +
                               items.size() * AREA_HEADER_WORDS + entry_words);
    }
};

}  // namespace beam

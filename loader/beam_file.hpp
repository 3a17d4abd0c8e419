// The IFF container of a .beam file: "FOR1" <size> "BEAM", then chunks of
// <4-byte id> <4-byte big-endian size> <data, padded to a multiple of 4>.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "vm/result.hpp"

namespace beam::loader {

struct Chunk {
    char id[5];                     // NUL-terminated for messages
    std::span<const uint8_t> data;  // without padding
    size_t offset;                  // file offset of data[0]

    std::string_view name() const { return std::string_view(id, 4); }
};

struct BeamFile {
    std::vector<Chunk> chunks;  // in file order
    // The first chunk with this id, if any.
    const Chunk* find(std::string_view id) const;
};

// Splits `bytes` into chunks. Checks the magic, the FOR1 size against the file, and every chunk
// size against what remains; a duplicate chunk id is an error (OTP takes the first silently, but
// a duplicate means the file was not written by erlc).
Result<BeamFile> read_beam_file(std::span<const uint8_t> bytes);

}  // namespace beam::loader

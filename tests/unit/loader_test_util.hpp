// Helpers for the loader tests: reading fixture and OTP .beam files, and rebuilding a .beam
// with one chunk replaced, so malformed-file tests start from real erlc output.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "loader/beam_file.hpp"

namespace beam::test {

inline std::vector<uint8_t> read_file_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}
inline std::vector<uint8_t> fixture_beam(const std::string& module) {
    return read_file_bytes(std::string(LOADER_FIXTURE_DIR) + "/" + module + ".beam");
}
inline std::vector<uint8_t> otp_beam(const std::string& module) {
    return read_file_bytes(std::string(OTP_STDLIB_EBIN) + "/" + module + ".beam");
}

inline void put_u32(std::vector<uint8_t>& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
}
inline void set_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (24 - 8 * i));
}
inline uint32_t get_u32(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3];
}

struct EditableChunk {
    std::string id;
    std::vector<uint8_t> data;
};

inline std::vector<EditableChunk> split_chunks(const std::vector<uint8_t>& beam) {
    auto f = loader::read_beam_file(beam);
    std::vector<EditableChunk> out;
    for (const loader::Chunk& c : f->chunks) out.push_back({std::string(c.name()), {c.data.begin(), c.data.end()}});
    return out;
}

inline std::vector<uint8_t> join_chunks(const std::vector<EditableChunk>& chunks) {
    std::vector<uint8_t> body{'B', 'E', 'A', 'M'};
    for (const EditableChunk& c : chunks) {
        body.insert(body.end(), c.id.begin(), c.id.end());
        put_u32(body, uint32_t(c.data.size()));
        body.insert(body.end(), c.data.begin(), c.data.end());
        while (body.size() % 4) body.push_back(0);
    }
    std::vector<uint8_t> out{'F', 'O', 'R', '1'};
    put_u32(out, uint32_t(body.size()));
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

inline EditableChunk* find_chunk(std::vector<EditableChunk>& chunks, const std::string& id) {
    for (auto& c : chunks)
        if (c.id == id) return &c;
    return nullptr;
}

}  // namespace beam::test

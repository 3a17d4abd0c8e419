#include "loader/beam_file.hpp"

#include <cstring>
#include <fmt/format.h>

#include "loader/byte_reader.hpp"

namespace beam::loader {

const Chunk* BeamFile::find(std::string_view id) const {
    for (const Chunk& c : chunks)
        if (c.name() == id) return &c;
    return nullptr;
}

static Error container_error(size_t offset, std::string_view why) {
    return make_error(fmt::format("beam file at offset {}: {}", offset, why));
}

static bool printable_id(std::span<const uint8_t> id) {
    for (uint8_t c : id)
        if (c < 0x20 || c > 0x7E) return false;
    return true;
}

Result<BeamFile> read_beam_file(std::span<const uint8_t> bytes) {
    ByteReader r(bytes);
    std::span<const uint8_t> magic;
    uint32_t form_size = 0;
    if (!r.bytes(4, magic) || std::memcmp(magic.data(), "FOR1", 4) != 0)
        return container_error(0, "bad magic (not an IFF FOR1 file)");
    if (!r.u32(form_size)) return container_error(4, "truncated header");
    // erlc writes the exact size; trailing bytes beyond it are tolerated as OTP does.
    if (form_size > r.remaining())
        return container_error(4, fmt::format("form size {} exceeds the {} bytes in the file", form_size,
                                              r.remaining()));
    ByteReader form(bytes.subspan(8, form_size), 8);
    std::span<const uint8_t> kind;
    if (!form.bytes(4, kind) || std::memcmp(kind.data(), "BEAM", 4) != 0)
        return container_error(8, "bad magic (form type is not BEAM)");

    BeamFile file;
    while (!form.at_end()) {
        size_t at = form.file_offset();
        std::span<const uint8_t> id;
        uint32_t size = 0;
        if (!form.bytes(4, id) || !form.u32(size)) return container_error(at, "truncated chunk header");
        if (!printable_id(id)) return container_error(at, "bad chunk id");
        Chunk c;
        std::memcpy(c.id, id.data(), 4);
        c.id[4] = 0;
        c.offset = form.file_offset();
        if (!form.bytes(size, c.data))
            return container_error(at, fmt::format("chunk {} size {} exceeds the {} bytes left", c.id, size,
                                                   form.remaining()));
        // The last chunk's padding is sometimes missing in files written by other tools.
        size_t pad = (4 - size % 4) % 4;
        if (!form.skip(std::min(pad, form.remaining()))) return container_error(at, "bad padding");
        if (file.find(c.name())) return container_error(at, fmt::format("duplicate chunk {}", c.id));
        file.chunks.push_back(c);
    }
    return file;
}

}  // namespace beam::loader

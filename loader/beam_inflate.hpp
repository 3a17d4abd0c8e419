// Gzip-compressed .beam files (what `compile:file(F, [compressed])` writes): erl loads them as
// if they were plain, so the loader inflates them before reading the IFF container.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "vm/result.hpp"

namespace beam::loader {

// The most a compressed module may inflate to, and the most a LitT chunk may claim. The
// largest module of the OTP 25 installation inflates to 0.7 MB; 128 MiB leaves room for
// generated modules with large constant tables, while a small file crafted to inflate without
// end (a gzip bomb) costs at most this much memory and a fraction of a second before it is
// refused as badfile. erl has no such limit (it inflates until memory runs out); a module
// past it is a deliberate difference (docs/architecture.md).
inline constexpr size_t MAX_INFLATED_BEAM = size_t{128} << 20;

// True when `bytes` starts with gzip's magic (1f 8b), as erts checks before inflating.
bool is_gzip(std::span<const uint8_t> bytes);

// The bytes the loader parses: `bytes` itself, or, for a gzip stream, its inflated contents
// (stored in `inflated`, which must outlive the result). Like erl, one or more concatenated
// gzip members are accepted; a truncated or corrupt stream, bytes after the last member that
// are not another member, or output past MAX_INFLATED_BEAM are errors. Nested gzip is not
// inflated again (erl refuses it too, as a file not starting with FOR1).
Result<std::span<const uint8_t>> plain_beam_bytes(std::span<const uint8_t> bytes, std::vector<uint8_t>& inflated);

}  // namespace beam::loader

// Binaries whose bytes a native object vouches for: enif_make_resource_binary's binary keeps
// its resource alive, and enif_get_resource on the binary finds the resource again, as in
// erts. The blob holds a count on the object until the blob's last holder lets go.
#pragma once

#include <atomic>
#include <cstddef>

#include "vm/binary.hpp"

namespace beam {

class MagicObject;

// Ties `owner` (a count the caller gives up) to the blob until the blob is freed.
void set_blob_owner(BinaryBlob* blob, MagicObject* owner);
// The object tied to the blob, or null.
MagicObject* blob_owner(const BinaryBlob* blob);

namespace detail {
// How many blobs have an owner: BinaryBlob::release looks for one only while this is not 0.
extern std::atomic<size_t> owned_blobs;
// The blob is being freed: its owner's count goes.
void drop_blob_owner(const BinaryBlob* blob);
}  // namespace detail

}  // namespace beam

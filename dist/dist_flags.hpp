// Distribution capability flags of OTP 25's protocol (erl_dist_protocol, "Distribution
// Flags"): exchanged in the handshake's name and challenge messages.
#pragma once

#include <cstdint>

namespace beam::dist::flag {

inline constexpr uint64_t PUBLISHED = 0x1;
inline constexpr uint64_t ATOM_CACHE = 0x2;
inline constexpr uint64_t EXTENDED_REFERENCES = 0x4;
inline constexpr uint64_t DIST_MONITOR = 0x8;
inline constexpr uint64_t FUN_TAGS = 0x10;
inline constexpr uint64_t DIST_MONITOR_NAME = 0x20;
inline constexpr uint64_t HIDDEN_ATOM_CACHE = 0x40;
inline constexpr uint64_t NEW_FUN_TAGS = 0x80;
inline constexpr uint64_t EXTENDED_PIDS_PORTS = 0x100;
inline constexpr uint64_t EXPORT_PTR_TAG = 0x200;
inline constexpr uint64_t BIT_BINARIES = 0x400;
inline constexpr uint64_t NEW_FLOATS = 0x800;
inline constexpr uint64_t UNICODE_IO = 0x1000;
inline constexpr uint64_t DIST_HDR_ATOM_CACHE = 0x2000;
inline constexpr uint64_t SMALL_ATOM_TAGS = 0x4000;
inline constexpr uint64_t UTF8_ATOMS = 0x10000;
inline constexpr uint64_t MAP_TAG = 0x20000;
inline constexpr uint64_t BIG_CREATION = 0x40000;
inline constexpr uint64_t SEND_SENDER = 0x80000;
inline constexpr uint64_t BIG_SEQTRACE_LABELS = 0x100000;
inline constexpr uint64_t EXIT_PAYLOAD = 0x400000;
inline constexpr uint64_t FRAGMENTS = 0x800000;
inline constexpr uint64_t HANDSHAKE_23 = 0x1000000;
inline constexpr uint64_t UNLINK_ID = 0x2000000;
inline constexpr uint64_t MANDATORY_25_DIGEST = 0x4000000;
inline constexpr uint64_t SPAWN = 1ull << 32;
inline constexpr uint64_t NAME_ME = 1ull << 33;
inline constexpr uint64_t V4_NC = 1ull << 34;
inline constexpr uint64_t ALIAS = 1ull << 35;

// What OTP 25 requires of a peer (its DFLAG_DIST_MANDATORY).
inline constexpr uint64_t MANDATORY = EXTENDED_REFERENCES | FUN_TAGS | EXTENDED_PIDS_PORTS | UTF8_ATOMS |
                                      NEW_FUN_TAGS | BIG_CREATION | NEW_FLOATS | MAP_TAG | EXPORT_PTR_TAG |
                                      BIT_BINARIES | HANDSHAKE_23;
// What this node offers: everything OTP 25 offers by default.
inline constexpr uint64_t DEFAULT = MANDATORY | DIST_MONITOR | DIST_MONITOR_NAME | UNICODE_IO |
                                    DIST_HDR_ATOM_CACHE | SMALL_ATOM_TAGS | SEND_SENDER | BIG_SEQTRACE_LABELS |
                                    EXIT_PAYLOAD | FRAGMENTS | UNLINK_ID | MANDATORY_25_DIGEST | SPAWN | V4_NC |
                                    ALIAS;
// What a connection may drop (erts' DFLAG_DIST_ADDABLE / REJECTABLE / STRICT_ORDER).
inline constexpr uint64_t ADDABLE = DEFAULT;
inline constexpr uint64_t REJECTABLE = ATOM_CACHE | DIST_HDR_ATOM_CACHE | HIDDEN_ATOM_CACHE | FRAGMENTS;
inline constexpr uint64_t STRICT_ORDER = DIST_HDR_ATOM_CACHE;

}  // namespace beam::dist::flag

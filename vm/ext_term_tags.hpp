// Tag bytes of the external term format (OTP's erts/emulator/beam/external.h values).
#pragma once

#include <cstdint>

namespace beam::ext {

inline constexpr uint8_t VERSION = 131;
inline constexpr uint8_t COMPRESSED = 80;
inline constexpr uint8_t NEW_FLOAT = 70;
inline constexpr uint8_t BIT_BINARY = 77;
inline constexpr uint8_t ATOM_CACHE_REF = 82;
inline constexpr uint8_t NEW_PID = 88;
inline constexpr uint8_t NEW_PORT = 89;
inline constexpr uint8_t NEWER_REFERENCE = 90;
inline constexpr uint8_t SMALL_INTEGER = 97;
inline constexpr uint8_t INTEGER = 98;
inline constexpr uint8_t FLOAT = 99;
inline constexpr uint8_t ATOM = 100;
inline constexpr uint8_t REFERENCE = 101;
inline constexpr uint8_t PORT = 102;
inline constexpr uint8_t PID = 103;
inline constexpr uint8_t SMALL_TUPLE = 104;
inline constexpr uint8_t LARGE_TUPLE = 105;
inline constexpr uint8_t NIL = 106;
inline constexpr uint8_t STRING = 107;
inline constexpr uint8_t LIST = 108;
inline constexpr uint8_t BINARY = 109;
inline constexpr uint8_t SMALL_BIG = 110;
inline constexpr uint8_t LARGE_BIG = 111;
inline constexpr uint8_t NEW_FUN = 112;
inline constexpr uint8_t EXPORT = 113;
inline constexpr uint8_t NEW_REFERENCE = 114;
inline constexpr uint8_t SMALL_ATOM = 115;
inline constexpr uint8_t MAP = 116;
inline constexpr uint8_t FUN = 117;
inline constexpr uint8_t ATOM_UTF8 = 118;
inline constexpr uint8_t SMALL_ATOM_UTF8 = 119;
inline constexpr uint8_t V4_PORT = 120;
inline constexpr uint8_t LOCAL = 121;

// Local pids are numbered id | serial << 15 (vm/term.hpp), the two fields of NEW_PID_EXT.
inline constexpr unsigned PID_SERIAL_SHIFT = PID_ID_BITS;

}  // namespace beam::ext

// How erts' printf counts a term it prints with %T (erts/emulator/beam/erl_printf_term.c):
// most of the text counts as what the writer took, which a full buffer makes less than the
// text, but the numbers it prints through printf count whole. nif/enif_printf.cpp uses these
// pieces of erlang:display/1's text for enif_snprintf's return value and %T's padding.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace beam::nif {

// A run of the display text of a term: a number erts prints through printf (counted whole:
// small integers, floats, binary bytes and bit counts, pid, port and reference numbers, hash
// map bitmaps) or anything else.
struct TermPiece {
    size_t at;
    size_t len;
    bool counted_whole;
};

std::vector<TermPiece> term_pieces(const std::string& display_text);

}  // namespace beam::nif

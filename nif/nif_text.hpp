// Latin-1 text as NIF libraries pass it (atom and function names, strings) and beamvm's UTF-8
// atom table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "vm/term.hpp"

namespace beam::nif {

std::string latin1_to_utf8(const char* s, size_t n);
// The atom named by Latin-1 text if it exists.
std::optional<Term> existing_latin1_atom(const char* s, size_t n);
// An atom's name in Latin-1, or nullopt when it has a character above 255.
std::optional<std::string> atom_latin1(Term atom);

}  // namespace beam::nif

// Text forms of terms.
#pragma once

#include <string>

#include "vm/term.hpp"

namespace beam {

// Exactly what erlang:display/1 prints on OTP 25 (without the line ending).
std::string display_string(Term t);
// Atom text as written in Erlang source: quoted when it must be ('hello world', 'Abc').
std::string atom_text_quoted(Term atom);

}  // namespace beam

// Text forms of terms.
#pragma once

#include <string>

#include "vm/term.hpp"

namespace beam {

// Exactly what erlang:display/1 prints on OTP 25 (without the line ending).
std::string display_string(Term t);
// The same text cut short as erts' "%.NT" prints a term with N in *budget (erl_printf_term.c's
// dcount): one per term, one per character of a printable list and per byte of a binary, an
// atom's length in bytes. *budget receives what is left; <= 0 when the text was cut.
std::string display_string(Term t, long* budget);
// Atom text as written in Erlang source: quoted when it must be ('hello world', 'Abc').
// Follows io_lib:write_atom/1 (reserved words quoted, a@b not), not display/1's rules;
// the text is UTF-8.
std::string atom_text_quoted(Term atom);

}  // namespace beam

// The atoms the inet drivers put in every message they send, each looked up once. atom()
// (vm/atom_table.hpp) takes the atom table's lock and hashes the name on every call: that was
// a lock shared with every scheduler, taken twice per packet delivered.
#pragma once

#include "vm/atom_table.hpp"

namespace beam::inet::atoms {

inline Term tcp() { static const Term a = atom("tcp"); return a; }
inline Term udp() { static const Term a = atom("udp"); return a; }
inline Term http() { static const Term a = atom("http"); return a; }
inline Term data() { static const Term a = atom("data"); return a; }
inline Term inet_reply() { static const Term a = atom("inet_reply"); return a; }
inline Term inet_async() { static const Term a = atom("inet_async"); return a; }

}  // namespace beam::inet::atoms

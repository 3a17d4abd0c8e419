// What a process holds of one module version: the question behind check_process_code and purge
// (design notes §5). A process "uses" a version if it is executing it: its pc, a return address
// or a catch handler on its stack points into the code. Holding a fun defined by the version is
// not use (as OTP 25 decides: such funs raise badfun once the code is purged), nor is holding a
// literal of it: purge copies such literals onto the process's heap.
#pragma once

#include "vm/module.hpp"
#include "vm/process.hpp"

namespace beam {

struct CodeUse {
    bool runs = false;      // pc, a return address or a catch handler in the code
    bool literals = false;  // a term pointing into the version's literal area

    bool uses() const { return runs; }
};

// Looks at everything the process can reach: x0..x(live-1), the stack, the dictionary, the
// saved exception terms and the mailbox. The caller owns `q` for the duration (it is the
// caller itself, or borrowed from the schedulers); nothing is changed.
CodeUse scan_code_use(const Process* q, const ModuleCode& code, const Term* x, unsigned live);

// The same look for terms in `area` only (a persistent term's copy): true if q holds one.
bool holds_literals(const Process* q, const LiteralArea& area, const Term* x, unsigned live);

}  // namespace beam

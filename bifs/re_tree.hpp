// The parse tree of a regular expression, between the parser (bifs/re_compile.cpp) and the
// code generator (bifs/re_emit.cpp). Internal to the regular expression engine.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bifs/re_program.hpp"

namespace beam::re {

struct Node {
    enum Kind { Empty, Char, Any, Class, Bol, Eol, WordB, NotWordB, SubjStart, SubjEnd, SubjEndNl, MatchStart,
                Group, Concat, Alt, Repeat, Look, Atomic, Backref, Call };
    Kind kind;
    uint32_t c = 0;
    bool fold = false, flag = false, flag2 = false;
    int index = -1;             // Group: capture number (-1 none); Class: class index; Backref: group
    int min = 0, max = -1;      // Repeat (max -1: unbounded)
    bool greedy = true, possessive = false;
    bool behind = false, negated = false;  // Look
    std::string backref_name;   // \k<name> before the name is known
    std::vector<Node> kids;
};

struct Fail {
    std::string message;
    size_t offset;
};

// The program for `root` (a whole pattern or a called group). `registers` counts the registers
// allocated so far, over every program of the expression.
std::shared_ptr<Program> emit_program(Regex& re, int& registers, const Node& root, const std::vector<CharClass>& classes);

}  // namespace beam::re

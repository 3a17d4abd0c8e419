// The argument list erl's launcher (erlexec) works on: the command line merged with the
// environment's ERL_AFLAGS, ERL_FLAGS and ERL_ZFLAGS, and -args_file expanded, before any flag
// is interpreted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace beam {

// The words of `text` as erlexec splits an environment variable or an arguments file:
// whitespace separates, '...' and "..." quote, a backslash takes the next character as it is,
// and (in files only) '#' starts a comment up to the end of the line.
std::vector<std::string> split_erl_words(const std::string& text, bool allow_comments);

struct ErlArgvError {
    std::string message;  // erlexec's words, printed before its usage line
};

// argv without the program name, merged as erlexec merges it: ERL_AFLAGS, the command line,
// ERL_FLAGS, ERL_ZFLAGS, each group followed by "--" so that one group's flag does not take
// the next group's words as values; -args_file File replaced by the file's words (nested files
// too); every group's -extra part moved to one -extra at the end. When neither an environment
// variable nor an -args_file is there, argv is returned unchanged (no "--" added), as erlexec.
// Unset or empty variables add nothing.
struct MergedArgv {
    std::vector<std::string> args;
    std::optional<ErlArgvError> error;
    // Where the command line's own words end in `args`: the index of the "--" the merge put
    // after them (the words after it came from ERL_FLAGS/ERL_ZFLAGS), or args.size() when
    // nothing was merged. `beamvm m.beam Args...` takes its Args up to there.
    size_t command_end = SIZE_MAX;
};
MergedArgv merge_erl_argv(const std::vector<std::string>& argv);

// erlexec's usage line (printed after an error in the launcher's own flags), then exit 1.
[[noreturn]] void erl_launcher_usage_exit(const std::string& message);

}  // namespace beam

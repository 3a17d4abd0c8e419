#include "tools/erl_argv.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace beam {

std::vector<std::string> split_erl_words(const std::string& text, bool allow_comments) {
    std::vector<std::string> words;
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    size_t i = 0, n = text.size();
    while (i < n) {
        if (space(text[i])) {
            ++i;
            continue;
        }
        if (allow_comments && text[i] == '#') {
            while (i < n && text[i] != '\n') ++i;
            continue;
        }
        // A word: runs to unquoted whitespace, or to '#' in a file (which then starts a comment).
        std::string w;
        while (i < n && !space(text[i]) && !(allow_comments && text[i] == '#')) {
            char c = text[i++];
            if (c == '"' || c == '\'') {
                while (i < n && text[i] != c) w += text[i++];
                if (i < n) ++i;  // the closing quote; an unclosed one ends at the text's end
            } else if (c == '\\') {
                if (i < n) w += text[i++];
            } else {
                w += c;
            }
        }
        words.push_back(std::move(w));
    }
    return words;
}

namespace {

// The words of an environment variable, or nothing when it is unset or holds no word.
std::optional<std::vector<std::string>> env_words(const char* name) {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    std::vector<std::string> w = split_erl_words(v, false);
    if (w.empty()) return std::nullopt;
    w.push_back("--");
    return w;
}

struct Merger {
    std::vector<std::string> args;
    std::vector<std::string> extra;  // every group's words after its -extra, in order
    std::optional<ErlArgvError> error;

    // An arguments file's words (with "--" after them, as a group), or an error.
    std::optional<std::vector<std::string>> read_file(const std::string& name) {
        std::ifstream in(name, std::ios::binary);
        if (!in) {
            int err = errno;
            char cwd[4096];
            if (!getcwd(cwd, sizeof cwd)) cwd[0] = 0;
            error = ErlArgvError{"Failed to open arguments file \"" + name + "\" at \"" + cwd +
                                 "\": " + std::strerror(err)};
            return std::nullopt;
        }
        std::stringstream text;
        text << in.rdbuf();
        std::vector<std::string> w = split_erl_words(text.str(), true);
        if (!w.empty()) w.push_back("--");
        return w;
    }

    // One group's words, -args_file expanded in place (depth first), -extra's tail set aside.
    // Returns false on an error.
    bool add_group(const std::vector<std::string>& words) {
        for (size_t i = 0; i < words.size(); ++i) {
            if (words[i] == "-args_file") {
                if (++i == words.size()) {
                    error = ErlArgvError{"Missing argument(s) for '-args_file'."};
                    return false;
                }
                auto file = read_file(words[i]);
                if (!file || !add_group(*file)) return false;
            } else if (words[i] == "-extra") {
                extra.insert(extra.end(), words.begin() + long(i) + 1, words.end());
                return true;
            } else {
                args.push_back(words[i]);
            }
        }
        return true;
    }
};

bool needs_merge(const std::vector<std::string>& argv) {
    for (const std::string& a : argv) {
        if (a == "-extra") return false;
        if (a == "-args_file") return true;
    }
    return false;
}

}  // namespace

MergedArgv merge_erl_argv(const std::vector<std::string>& argv) {
    // ERL_OTP25_FLAGS (erlexec's undocumented per-release variable) comes first, as there.
    std::vector<std::vector<std::string>> groups;
    for (const char* name : {"ERL_OTP25_FLAGS", "ERL_AFLAGS"})
        if (auto w = env_words(name)) groups.push_back(std::move(*w));
    bool only_command_line = groups.empty();
    size_t marker = SIZE_MAX;  // the group of the "--" after the command line
    if (!argv.empty()) {
        // The command line ends where its "--" begins: an -args_file last on it has no file.
        groups.push_back(argv);
        marker = groups.size();
        groups.push_back({"--"});
    }
    for (const char* name : {"ERL_FLAGS", "ERL_ZFLAGS"}) {
        if (auto w = env_words(name)) {
            groups.push_back(std::move(*w));
            only_command_line = false;
        }
    }
    if (only_command_line && !needs_merge(argv)) return {argv, std::nullopt, argv.size()};

    Merger m;
    size_t command_end = SIZE_MAX;
    for (size_t g = 0; g < groups.size(); ++g) {
        if (g == marker) command_end = m.args.size();
        if (!m.add_group(groups[g])) return {{}, m.error};
    }
    if (!m.extra.empty()) {
        m.args.push_back("-extra");
        m.args.insert(m.args.end(), m.extra.begin(), m.extra.end());
    }
    if (command_end == SIZE_MAX) command_end = m.args.size();
    return {std::move(m.args), std::nullopt, command_end};
}

void erl_launcher_usage_exit(const std::string& message) {
    // erlexec's usage line names its own flags; beamvm's --help describes them all.
    std::fprintf(stderr, "%s\nUsage: beamvm [flags] [args ...] (see beamvm --help)\n", message.c_str());
    std::exit(1);
}

}  // namespace beam

#include "tools/escript_args.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace beam {

namespace {

// The words after "%%!" on the script's second line, or else its third (as the launcher).
std::vector<std::string> emulator_options(const std::string& script) {
    std::ifstream in(script, std::ios::binary);
    std::string line;
    std::vector<std::string> words;
    if (!std::getline(in, line)) return words;  // the first line (#!...) is never read
    for (int n = 0; n < 2 && std::getline(in, line); ++n) {
        if (!line.starts_with("%%!")) continue;
        size_t i = 3;
        while (i < line.size()) {
            while (i < line.size() && line[i] == ' ') ++i;
            size_t end = line.find(' ', i);
            if (end == std::string::npos) end = line.size();
            std::string w = line.substr(i, end - i);
            if (!w.empty() && w.back() == '\r') w.pop_back();
            if (!w.empty()) words.push_back(w);
            i = end;
        }
        break;
    }
    return words;
}

}  // namespace

std::optional<std::vector<std::string>> escript_command_line(const std::vector<std::string>& args) {
    if (args.empty()) return std::nullopt;
    const std::string& script = args[0];
    if (script.empty() || script[0] == '-' || script[0] == '+' || script.ends_with(".beam")) return std::nullopt;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(script, ec)) return std::nullopt;
    std::vector<std::string> out = {"-boot", "no_dot_erlang", "-noshell"};
    for (std::string& w : emulator_options(script)) out.push_back(std::move(w));
    out.insert(out.end(), {"-run", "escript", "start", "-extra"});
    out.insert(out.end(), args.begin(), args.end());
    setenv("ESCRIPT_NAME", script.c_str(), 1);
    return out;
}

}  // namespace beam

// The output stream of the dump's printers: buffered writes to the dump file, cut off at
// ERL_CRASH_DUMP_BYTES as erts cuts them (erts/emulator/beam/break.c: the limited writer
// appends "=abort:CRASH DUMP SIZE LIMIT REACHED" and the dump ends there; crashdump_viewer
// reads such a dump as truncated), or the terminal when the break menu (^C) prints the same
// sections. Its purpose is erts' ERTS_IS_CRASH_DUMPING: a few sections read differently on
// the terminal (a process's stack in its "Stack dump:" form, an ETS table's objects).
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace beam::crashdump {

enum class DumpPurpose { CrashDump, BreakMenu };

class DumpOutput {
public:
    // `limit`: bytes at most (SIZE_MAX for none).
    DumpOutput(std::FILE* f, uint64_t limit, DumpPurpose purpose = DumpPurpose::CrashDump)
        : f_(f), limit_(limit), purpose_(purpose) {}
    bool crash_dumping() const { return purpose_ == DumpPurpose::CrashDump; }
    void write(std::string_view s);
    void printf(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
    // The size limit was reached: the rest of the dump is dropped (erl exits there).
    bool cut() const { return cut_; }

private:
    std::FILE* f_;
    uint64_t limit_;
    DumpPurpose purpose_;
    uint64_t written_ = 0;
    bool cut_ = false;
};

// Base64 of `n` bytes, as erts_print_base64 writes binaries (with '=' padding).
std::string base64(const uint8_t* data, size_t n);

}  // namespace beam::crashdump

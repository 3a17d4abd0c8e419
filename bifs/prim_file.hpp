// The native side of OTP's prim_file (erts/preloaded/src/prim_file.erl), shared by
// bifs/prim_file_handle.cpp (open/close), bifs/prim_file_io.cpp (reads, writes, seeks on a
// handle), bifs/prim_file_info.cpp (#file_info{} and write_file_info's setters),
// bifs/prim_file_fs.cpp (operations on names) and bifs/prim_file_names.cpp (name encoding).
//
// prim_file.erl keeps the Erlang side (the #file_descriptor{} record, its owner check, the
// read-ahead buffer in a prim_buffer); the natives see a file reference, a magic reference
// to a FileHandle, and native names: the binaries internal_name2native/1 makes, NUL
// terminated. Every error is {error, PosixAtom}, as erl's NIF returns it.
//
// OTP runs these natives on dirty I/O schedulers; beamvm has none, so each call blocks its
// scheduler for the system call it makes (docs/natives.md). A read or write moves at most
// what the caller asked for in one call, and prim_file.erl's loops (write_nif's
// {continue, Rest}) bound a write to 64 binaries per call.
#pragma once

#include <sys/stat.h>

#include <mutex>
#include <string>

#include "bifs/bif.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {

// An open file descriptor. The descriptor is closed by close_nif/1 or, failing that, when
// the last reference to the handle is garbage collected (the owner died or dropped it).
class FileHandle final : public MagicKind<FileHandle> {
public:
    FileHandle(int fd, unsigned modes) : fd(fd), modes(modes) {}
    ~FileHandle() override;
    size_t byte_size() const override { return sizeof(*this); }

    std::mutex mutex;  // natives on one handle never overlap
    int fd;            // -1 once closed
    unsigned modes;    // FileMode bits it was opened with
};

enum FileMode : unsigned {
    MODE_READ = 1,
    MODE_WRITE = 2,
    MODE_APPEND = 4,
    MODE_EXCLUSIVE = 8,
    MODE_SYNC = 16,
    MODE_SKIP_TYPE_CHECK = 32,
    MODE_DIRECTORY = 64,
};

// The open handle behind a file reference, locked for the call. Null with `result` set
// when there is none: badarg (not a file reference) or {error, einval} (closed), as erl.
FileHandle* locked_file(Process* p, Term ref, std::unique_lock<std::mutex>& lock, Term& result);

// A native name argument (a binary ending in NUL, no NUL before it) as a C string; false if
// it is not one (erl answers {error, einval}).
bool native_path(Term t, std::string& out);

// A signed 64-bit integer argument (small, or a one-limb bignum in range).
bool int64_arg(Term t, int64_t& out);

// The #file_info{} tuple for a stat result, times as POSIX seconds (prim_file.erl converts
// them); `path` (or the descriptor when path is null) decides the access field.
Term file_info_tuple(Process* p, const struct stat& st, const char* path, int fd);

}  // namespace beam

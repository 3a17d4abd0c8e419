// #file_info{} for prim_file: read_info_nif/2 (stat or lstat) and the setters behind
// write_file_info: set_permissions_nif/2, set_owner_nif/3, set_time_nif/4. Times travel as
// POSIX seconds; prim_file.erl converts them to local or universal time as asked. The
// fields are those of kernel's file.hrl record, filled as erts does on Unix: major_device
// is st_dev, minor_device st_rdev, and `access` comes from access(2) for a name and from
// the mode bits for an open handle.
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <algorithm>
#include <cerrno>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "bifs/prim_file.hpp"
#include "bifs/sandbox_checks.hpp"
#include "vm/bignum.hpp"

namespace beam {

namespace {

// erl clamps times before 1902 to this (EFILE_MIN_FILETIME).
constexpr int64_t MIN_FILETIME = -2145916800;

Term type_atom(mode_t m) {
    if (S_ISCHR(m) || S_ISBLK(m)) return atom("device");
    if (S_ISDIR(m)) return atom("directory");
    if (S_ISREG(m)) return atom("regular");
    if (S_ISLNK(m)) return atom("symlink");
    return atom("other");
}

// For an open handle: the owner, group or other bits that apply to this process.
unsigned handle_access(const struct stat& st) {
    if (st.st_uid == ::geteuid()) return ((st.st_mode & S_IRUSR) ? 1 : 0) | ((st.st_mode & S_IWUSR) ? 2 : 0);
    if (st.st_gid == ::getegid()) return ((st.st_mode & S_IRGRP) ? 1 : 0) | ((st.st_mode & S_IWGRP) ? 2 : 0);
    return ((st.st_mode & S_IROTH) ? 1 : 0) | ((st.st_mode & S_IWOTH) ? 2 : 0);
}

Term access_atom(unsigned bits) {
    switch (bits) {
    case 1: return atom("read");
    case 2: return atom("write");
    case 3: return atom("read_write");
    default: return atom("none");
    }
}

bool int32_arg(Term t, int32_t& out) {
    if (!is_small(t) || small_value(t) < INT32_MIN || small_value(t) > INT32_MAX) return false;
    out = int32_t(small_value(t));
    return true;
}

}  // namespace

Term file_info_tuple(Process* p, const struct stat& st, const char* path, int) {
    unsigned access = path ? ((::access(path, R_OK) == 0 ? 1 : 0) | (::access(path, W_OK) == 0 ? 2 : 0))
                           : handle_access(st);
    auto time = [&](int64_t t) { return make_integer(*p, std::max(MIN_FILETIME, t)); };
    auto uint = [&](uint64_t v) { return make_integer_u(*p, uint32_t(v)); };
    return make_tuple(*p, {atom("file_info"), make_integer_u(*p, uint64_t(st.st_size)), type_atom(st.st_mode),
                           access_atom(access), time(st.st_atime), time(st.st_mtime), time(st.st_ctime),
                           uint(st.st_mode), uint(st.st_nlink), uint(st.st_dev), uint(st.st_rdev),
                           uint(st.st_ino), uint(st.st_uid), uint(st.st_gid)});
}

namespace {

Term read_info_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    int32_t follow;
    if (!int32_arg(a[1], follow)) return p->badarg();
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    struct stat st;
    int rc = follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st);
    if (rc < 0) return posix_error_tuple(p, errno);
    return file_info_tuple(p, st, path.c_str(), -1);
}

Term set_permissions_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    if (!is_small(a[1]) || small_value(a[1]) < 0 || small_value(a[1]) > UINT32_MAX) return p->badarg();
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    const mode_t mutable_bits = S_ISUID | S_ISGID | S_IRWXU | S_IRWXG | S_IRWXO;
    mode_t mode = mode_t(small_value(a[1])) & mutable_bits;
    // Without the privilege for set-id bits, erl sets the rest.
    if (::chmod(path.c_str(), mode) < 0 && ::chmod(path.c_str(), mode & ~(S_ISUID | S_ISGID)) < 0)
        return posix_error_tuple(p, errno);
    return am::ok;
}

Term set_owner_nif_3(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    int32_t uid, gid;
    if (!int32_arg(a[1], uid) || !int32_arg(a[2], gid)) return p->badarg();
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    if (::chown(path.c_str(), uid_t(uid), gid_t(gid)) < 0) return posix_error_tuple(p, errno);
    return am::ok;
}

// The creation time cannot be set on Unix; erl ignores it.
Term set_time_nif_4(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    int64_t atime, mtime, ctime;
    if (!int64_arg(a[1], atime) || !int64_arg(a[2], mtime) || !int64_arg(a[3], ctime)) return p->badarg();
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    struct utimbuf times{time_t(atime), time_t(mtime)};
    if (::utime(path.c_str(), &times) < 0) return posix_error_tuple(p, errno);
    return am::ok;
}

constexpr BifSpec table[] = {
    {"prim_file", "read_info_nif", 2, &read_info_nif_2},
    {"prim_file", "set_permissions_nif", 2, &set_permissions_nif_2},
    {"prim_file", "set_owner_nif", 3, &set_owner_nif_3},
    {"prim_file", "set_time_nif", 4, &set_time_nif_4},
};

}  // namespace

std::span<const BifSpec> prim_file_info_bifs() { return table; }

}  // namespace beam

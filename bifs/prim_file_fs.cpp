// prim_file's natives on names: read_file_nif/1, list_dir_nif/1, read_link_nif/1,
// make_dir_nif/1, del_dir_nif/1, del_file_nif/1, rename_nif/2, make_hard_link_nif/2,
// make_soft_link_nif/2, get_cwd_nif/0, set_cwd_nif/1, get_device_cwd_nif/1 and
// altname_nif/1. Names arrive as internal_name2native/1 made them; results that are names
// leave as raw binaries, which prim_file.erl decodes. The errno fix-ups are erl's on Unix:
// unlink of a directory is eperm (Linux says eisdir), a non-empty directory as rmdir's or
// rename's target is eexist, and rmdir of the current directory is einval.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <string>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "bifs/prim_file.hpp"
#include "bifs/sandbox_checks.hpp"
#include "vm/binary.hpp"

namespace beam {

namespace {

// Runs `op` on the one native name argument: {error, einval} for a malformed name,
// {error, Posix} if op fails (returns -1 with errno), else ok.
template <class Op>
Term on_path(Process* p, Term name, Op op) {
    std::string path;
    if (!native_path(name, path)) return posix_error_tuple(p, EINVAL);
    if (op(path.c_str()) < 0) return posix_error_tuple(p, errno);
    return am::ok;
}

template <class Op>
Term on_two_paths(Process* p, const Term* a, Op op) {
    std::string from, to;
    if (!native_path(a[0], from) || !native_path(a[1], to)) return posix_error_tuple(p, EINVAL);
    if (op(from.c_str(), to.c_str()) < 0) return posix_error_tuple(p, errno);
    return am::ok;
}

Term ok_binary(Process* p, std::string_view s) { return make_tuple(*p, {am::ok, make_binary(*p, s)}); }

// The whole file in one call, as erl does (file:read_file/1 means it). The size stat gives
// is read; a file that reports no size (/proc) is read until its end.
Term read_file_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    int fd;
    do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return posix_error_tuple(p, errno);
    struct stat st;
    if (::fstat(fd, &st) < 0) st.st_size = 0;
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return posix_error_tuple(p, EISDIR);
    }
    size_t size = S_ISREG(st.st_mode) ? size_t(st.st_size) : 0;
    Term result;
    try {
        if (size > 0) {
            uint8_t* data;
            Term bin = make_binary_uninit(*p, size, &data);
            size_t got = 0;
            int err = 0;
            while (got < size) {
                ssize_t n = ::read(fd, data + got, size - got);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) err = errno;
                if (n <= 0) break;
                got += size_t(n);
            }
            if (err != 0) {
                result = posix_error_tuple(p, err);
            } else {
                if (got < size) bin = got <= HEAP_BIN_LIMIT ? make_binary(*p, data, got) : make_sub_binary(*p, bin, 0, got * 8);
                result = make_tuple(*p, {am::ok, bin});
            }
            p->reductions += int64_t(got / 4096);  // (the binary counted in vheap_words when made)
        } else {
            std::string buf;
            char chunk[16384];
            result = NON_VALUE;
            for (;;) {
                ssize_t n = ::read(fd, chunk, sizeof chunk);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) {
                    result = posix_error_tuple(p, errno);
                    break;
                }
                if (n == 0) break;
                buf.append(chunk, size_t(n));
            }
            if (result == NON_VALUE) result = ok_binary(p, buf);
        }
    } catch (const std::bad_alloc&) {
        result = posix_error_tuple(p, ENOMEM);
    }
    ::close(fd);
    return result;
}

Term list_dir_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    DIR* dir = ::opendir(path.c_str());
    if (!dir) return posix_error_tuple(p, errno);
    // Each name is consed onto the front, as erl's NIF does; prim_file.erl reverses.
    Term list = NIL;
    while (dirent* e = ::readdir(dir)) {
        if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
        Term name = make_binary(*p, std::string_view(e->d_name));
        Term* cell = p->alloc(2);
        cell[0] = name;
        cell[1] = list;
        list = make_list(cell);
    }
    ::closedir(dir);
    return make_tuple(*p, {am::ok, list});
}

Term read_link_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    std::string buf(256, '\0');
    for (;;) {
        ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
        if (n < 0) return posix_error_tuple(p, errno);
        if (size_t(n) < buf.size()) return ok_binary(p, std::string_view(buf.data(), size_t(n)));
        buf.resize(buf.size() * 2);
    }
}

Term make_dir_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    return on_path(p, a[0], [](const char* s) { return ::mkdir(s, 0777); });
}

Term del_file_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    return on_path(p, a[0], [](const char* s) {
        int rc = ::unlink(s);
        if (rc < 0 && errno == EISDIR) errno = EPERM;
        return rc;
    });
}

Term del_dir_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    return on_path(p, a[0], [](const char* s) {
        int rc = ::rmdir(s);
        if (rc < 0 && (errno == ENOTEMPTY || errno == EEXIST)) {
            errno = EEXIST;
            struct stat target, cwd;
            if (::stat(s, &target) == 0 && ::stat(".", &cwd) == 0 && target.st_ino == cwd.st_ino &&
                target.st_dev == cwd.st_dev)
                errno = EINVAL;
        }
        return rc;
    });
}

Term rename_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    return on_two_paths(p, a, [](const char* from, const char* to) {
        int rc = ::rename(from, to);
        if (rc < 0 && errno == ENOTEMPTY) errno = EEXIST;
        else if (rc < 0 && std::strcmp(from, "/") == 0) errno = EINVAL;
        return rc;
    });
}

Term make_hard_link_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    return on_two_paths(p, a, [](const char* from, const char* to) { return ::link(from, to); });
}

Term make_soft_link_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    return on_two_paths(p, a, [](const char* from, const char* to) { return ::symlink(from, to); });
}

Term get_cwd_nif_0(Process* p, const Term*) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::string buf(256, '\0');
    while (!::getcwd(buf.data(), buf.size())) {
        if (errno != ERANGE) return posix_error_tuple(p, errno);
        buf.resize(buf.size() * 2);
    }
    return ok_binary(p, std::string_view(buf.c_str()));
}

// The working directory belongs to the OS process: every process of the VM sees the change,
// as on erl.
Term set_cwd_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    return on_path(p, a[0], [](const char* s) { return ::chdir(s); });
}

// Drive letters and 8.3 names exist only on Windows.
Term get_device_cwd_nif_1(Process* p, const Term*) { return posix_error_tuple(p, ENOTSUP); }
Term altname_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    return posix_error_tuple(p, ENOTSUP);
}

constexpr BifSpec table[] = {
    {"prim_file", "read_file_nif", 1, &read_file_nif_1},
    {"prim_file", "list_dir_nif", 1, &list_dir_nif_1},
    {"prim_file", "read_link_nif", 1, &read_link_nif_1},
    {"prim_file", "make_dir_nif", 1, &make_dir_nif_1},
    {"prim_file", "del_file_nif", 1, &del_file_nif_1},
    {"prim_file", "del_dir_nif", 1, &del_dir_nif_1},
    {"prim_file", "rename_nif", 2, &rename_nif_2},
    {"prim_file", "make_hard_link_nif", 2, &make_hard_link_nif_2},
    {"prim_file", "make_soft_link_nif", 2, &make_soft_link_nif_2},
    {"prim_file", "get_cwd_nif", 0, &get_cwd_nif_0},
    {"prim_file", "set_cwd_nif", 1, &set_cwd_nif_1},
    {"prim_file", "get_device_cwd_nif", 1, &get_device_cwd_nif_1},
    {"prim_file", "altname_nif", 1, &altname_nif_1},
};

}  // namespace

std::span<const BifSpec> prim_file_fs_bifs() { return table; }

}  // namespace beam

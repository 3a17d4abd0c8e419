// prim_file's handle life: open_nif/2, file_desc_to_ref_nif/1, close_nif/1,
// delayed_close_nif/1, get_handle_nif/1; and the helpers every handle native shares.
// Open modes and their errors follow erts' Unix implementation (unix_prim_file.c): write
// alone truncates and creates, read+write creates without truncating, append and exclusive
// imply write, and a directory opened without `directory` (or `skip_type_check`) is eisdir.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "bifs/prim_file.hpp"
#include "bifs/sandbox_checks.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

#include <sys/stat.h>

namespace beam {

FileHandle::~FileHandle() {
    if (fd >= 0) ::close(fd);
}

FileHandle* locked_file(Process* p, Term ref, std::unique_lock<std::mutex>& lock, Term& result) {
    auto* f = magic_cast<FileHandle>(ref);
    if (!f) {
        result = p->badarg();
        return nullptr;
    }
    lock = std::unique_lock(f->mutex);
    if (f->fd < 0) {
        result = posix_error_tuple(p, EINVAL);
        return nullptr;
    }
    return f;
}

bool native_path(Term t, std::string& out) {
    if (!is_binary(t)) return false;
    std::string scratch;
    BitView v = bit_view(t);
    if (!v.byte_aligned()) {
        out.assign(v.byte_size(), '\0');
        copy_bits(v.base, v.bit_offset, reinterpret_cast<uint8_t*>(out.data()), 0, v.bit_size);
    } else {
        out.assign(reinterpret_cast<const char*>(v.bytes()), v.byte_size());
    }
    // One NUL, at the end: internal_name2native/1 puts it there.
    if (out.empty() || out.back() != '\0' || std::memchr(out.data(), 0, out.size() - 1)) return false;
    out.pop_back();
    return true;
}

bool int64_arg(Term t, int64_t& out) {
    if (is_small(t)) return out = small_value(t), true;
    if (is_big(t) && big_limb_count(t) == 1) {
        uint64_t m = big_limbs(t)[0];
        if (!big_is_negative(t) && m <= uint64_t(INT64_MAX)) return out = int64_t(m), true;
        if (big_is_negative(t) && m <= uint64_t(INT64_MAX) + 1) return out = int64_t(0 - m), true;
    }
    return false;
}

namespace {

unsigned translate_modes(Term list) {
    static const Term a_exclusive = atom("exclusive"), a_append = atom("append"), a_sync = atom("sync"),
                      a_skip = atom("skip_type_check"), a_directory = atom("directory"),
                      a_read = atom("read"), a_write = atom("write");
    unsigned modes = 0;
    for (Term t = list; is_list(t); t = tail(t)) {
        Term m = head(t);
        if (m == a_read) modes |= MODE_READ;
        else if (m == a_write) modes |= MODE_WRITE;
        else if (m == a_exclusive) modes |= MODE_EXCLUSIVE;
        else if (m == a_append) modes |= MODE_APPEND;
        else if (m == a_sync) modes |= MODE_SYNC;
        else if (m == a_skip) modes |= MODE_SKIP_TYPE_CHECK;
        else if (m == a_directory) modes |= MODE_DIRECTORY;
        // Anything else (binary, raw, read_ahead, ...) is prim_file.erl's or file's business.
    }
    if (modes & (MODE_APPEND | MODE_EXCLUSIVE)) modes |= MODE_WRITE;
    else if (!(modes & (MODE_READ | MODE_WRITE))) modes |= MODE_READ;
    return modes;
}

int open_flags(unsigned modes) {
    int flags;
    if ((modes & MODE_READ) && (modes & MODE_WRITE)) flags = O_RDWR | O_CREAT;
    else if (modes & MODE_WRITE) flags = O_WRONLY | O_CREAT | O_TRUNC;
    else flags = O_RDONLY;
    if (modes & MODE_APPEND) flags = (flags & ~O_TRUNC) | O_APPEND;
    if (modes & MODE_EXCLUSIVE) flags |= O_EXCL;
    if (modes & MODE_SYNC) flags |= O_SYNC;
    if (modes & MODE_DIRECTORY) flags |= O_DIRECTORY;
    return flags | O_CLOEXEC;
}

bool is_directory_fd(int fd) {
    struct stat st;
    return ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

Term new_handle(Process* p, int fd, unsigned modes) {
    return make_tuple(*p, {am::ok, make_magic_ref(*p, new FileHandle(fd, modes))});
}

Term open_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    if (!is_list(a[1]) && a[1] != NIL) return p->badarg();
    unsigned modes = translate_modes(a[1]);
    std::string path;
    if (!native_path(a[0], path)) return posix_error_tuple(p, EINVAL);
    int fd;
    do {
        fd = ::open(path.c_str(), open_flags(modes), (modes & MODE_DIRECTORY) ? 0777 : 0666);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return posix_error_tuple(p, errno);
    // open(2) accepts a directory for reading; erl insists on the directory mode for one.
    if (!(modes & (MODE_SKIP_TYPE_CHECK | MODE_DIRECTORY)) && is_directory_fd(fd)) {
        ::close(fd);
        return posix_error_tuple(p, EISDIR);
    }
    return new_handle(p, fd, modes);
}

// file:open/2 of an inherited descriptor ({file_descriptor, prim_file, ...} users such as
// the standard streams): the handle owns it from now on.
Term file_desc_to_ref_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    if (!is_small(a[0]) || small_value(a[0]) < INT32_MIN || small_value(a[0]) > INT32_MAX) return p->badarg();
    int fd = int(small_value(a[0]));
    int fl = ::fcntl(fd, F_GETFL);
    if (fl < 0) return posix_error_tuple(p, errno);
    unsigned modes = 0;
    if ((fl & O_ACCMODE) == O_RDONLY || (fl & O_ACCMODE) == O_RDWR) modes |= MODE_READ;
    if ((fl & O_ACCMODE) == O_WRONLY || (fl & O_ACCMODE) == O_RDWR) modes |= MODE_WRITE;
    if (fl & O_APPEND) modes |= MODE_APPEND;
    return new_handle(p, fd, modes);
}

Term close_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    int fd = f->fd;
    f->fd = -1;
    // close(2) always releases the descriptor on Linux, even when it reports an error.
    if (::close(fd) < 0) return posix_error_tuple(p, errno);
    return am::ok;
}

// The janitor process prim_file's on_load starts closes, in OTP, the files whose owner died
// (a resource monitor tells it). beamvm closes such files when their handle is collected, so
// the janitor is never told; called anyway, this closes what is still open.
Term delayed_close_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    auto* f = magic_cast<FileHandle>(a[0]);
    if (!f) return p->badarg();
    std::lock_guard lock(f->mutex);
    if (f->fd >= 0) ::close(f->fd);
    f->fd = -1;
    return am::ok;
}

// The descriptor's bytes in native order (prim_file:get_handle/1, for sendfile).
Term get_handle_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    int fd = f->fd;
    return make_binary(*p, reinterpret_cast<const uint8_t*>(&fd), sizeof fd);
}

constexpr BifSpec table[] = {
    {"prim_file", "open_nif", 2, &open_nif_2},
    {"prim_file", "file_desc_to_ref_nif", 1, &file_desc_to_ref_nif_1},
    {"prim_file", "close_nif", 1, &close_nif_1},
    {"prim_file", "delayed_close_nif", 1, &delayed_close_nif_1},
    {"prim_file", "get_handle_nif", 1, &get_handle_nif_1},
};

}  // namespace

std::span<const BifSpec> prim_file_handle_bifs() { return table; }

}  // namespace beam

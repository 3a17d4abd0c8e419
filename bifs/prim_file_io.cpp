// prim_file's natives on an open handle: read_nif/2, write_nif/2, pread_nif/3, pwrite_nif/3,
// seek_nif/3, sync_nif/2, truncate_nif/1, allocate_nif/3, advise_nif/4,
// ipread_s32bu_p32bu_nif/3 and read_handle_info_nif/1. Argument checks mirror erts'
// prim_file NIF: a non-number where a number belongs is badarg, a number out of range
// (negative size or offset) is {error, einval}.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <new>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "bifs/prim_file.hpp"
#include "bifs/sandbox_checks.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beam {

namespace {


// How many bytes a read of `want` at `offset` (-1: the current position) can bring: for a
// regular file, no more than what lies before its end, so that asking for far more than
// the file holds does not allocate it. At least 1 when something is wanted, so that the
// read itself finds the end of the file.
size_t read_budget(int fd, size_t want, int64_t offset) {
    struct stat st;
    if (want == 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return want;
    int64_t pos = offset >= 0 ? offset : int64_t(::lseek(fd, 0, SEEK_CUR));
    if (pos < 0) return want;
    int64_t left = int64_t(st.st_size) - pos;
    if (left <= 0) return 1;
    return size_t(left) < want ? size_t(left) : want;
}

// Reads up to `want` bytes (repeating short reads, as erl's readv loop does) at `offset` or,
// if it is negative, at the current position: {ok, Binary}, eof, or {error, Posix}.
Term read_binary(Process* p, int fd, size_t want, int64_t offset) {
    size_t budget = read_budget(fd, want, offset);
    uint8_t small_buf[HEAP_BIN_LIMIT];
    uint8_t* data = small_buf;
    Term bin = NON_VALUE;
    if (budget > HEAP_BIN_LIMIT) {
        bin = try_make_binary_uninit(*p, budget, &data);
        if (is_non_value(bin)) return posix_error_tuple(p, ENOMEM);
    }
    size_t got = 0;
    while (got < budget) {
        ssize_t n = offset >= 0 ? ::pread(fd, data + got, budget - got, offset + int64_t(got))
                                : ::read(fd, data + got, budget - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            if (got > 0) break;  // erl hands out what it read before the error
            return posix_error_tuple(p, errno);
        }
        if (n == 0) break;
        got += size_t(n);
    }
    if (got == 0) return am::eof;
    if (bin == NON_VALUE || got * 2 < budget) bin = make_binary(*p, data, got);
    else if (got < budget) bin = make_sub_binary(*p, bin, 0, got * 8);
    p->reductions += int64_t(got / 4096);
    // A sub-binary of the read buffer: the buffer's RefcBin was counted whole when made.
    return make_tuple(*p, {am::ok, bin});
}

// The first (at most) 64 binaries of an iovec, as erl's NIF takes them per call; `rest` is
// what is left. False if the list holds something else than binaries.
bool take_iovec(Term list, std::vector<iovec>& out, Term& rest, std::vector<std::string>& unaligned) {
    constexpr size_t MAX_ELEMENTS = 64;
    Term t = list;
    for (; is_list(t) && out.size() < MAX_ELEMENTS; t = tail(t)) {
        Term b = head(t);
        if (!is_binary(b)) return false;
        BitView v = bit_view(b);
        if (v.byte_size() == 0) continue;
        if (v.byte_aligned()) {
            out.push_back({const_cast<uint8_t*>(v.bytes()), v.byte_size()});
        } else {
            std::string& s = unaligned.emplace_back(v.byte_size(), '\0');
            copy_bits(v.base, v.bit_offset, reinterpret_cast<uint8_t*>(s.data()), 0, v.bit_size);
            out.push_back({s.data(), s.size()});
        }
    }
    if (!is_list(t) && t != NIL) return false;
    rest = t;
    return true;
}

// Writes every byte of `vec` (repeating partial writes); bytes written, or -1 with errno.
int64_t write_all(int fd, std::vector<iovec>& vec, int64_t offset) {
    int64_t total = 0;
    size_t i = 0;
    while (i < vec.size()) {
        int cnt = int(std::min<size_t>(vec.size() - i, IOV_MAX));
        ssize_t n = offset >= 0 ? ::pwritev(fd, &vec[i], cnt, offset + total) : ::writev(fd, &vec[i], cnt);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        total += n;
        while (n > 0 && i < vec.size()) {
            if (size_t(n) >= vec[i].iov_len) {
                n -= ssize_t(vec[i].iov_len);
                ++i;
            } else {
                vec[i].iov_base = static_cast<uint8_t*>(vec[i].iov_base) + n;
                vec[i].iov_len -= size_t(n);
                n = 0;
            }
        }
    }
    return total;
}

Term read_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    if (!is_number(a[1])) return p->badarg();
    int64_t size;
    if (!int64_arg(a[1], size) || size < 0) return posix_error_tuple(p, EINVAL);
    return read_binary(p, f->fd, size_t(size), -1);
}

Term pread_nif_3(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    if (!is_number(a[1]) || !is_number(a[2])) return p->badarg();
    int64_t offset, size;
    if (!int64_arg(a[1], offset) || !int64_arg(a[2], size) || offset < 0 || size < 0)
        return posix_error_tuple(p, EINVAL);
    return read_binary(p, f->fd, size_t(size), offset);
}

Term write_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    std::vector<iovec> vec;
    std::vector<std::string> unaligned;
    Term rest;
    if (!take_iovec(a[1], vec, rest, unaligned)) return p->badarg();
    int64_t n = write_all(f->fd, vec, -1);
    if (n < 0) return posix_error_tuple(p, errno);
    p->reductions += n / 4096;
    if (rest != NIL) return make_tuple(*p, {atom("continue"), rest});
    return am::ok;
}

Term pwrite_nif_3(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    std::vector<iovec> vec;
    std::vector<std::string> unaligned;
    Term rest;
    if (!is_number(a[1]) || !take_iovec(a[2], vec, rest, unaligned)) return p->badarg();
    int64_t offset;
    if (!int64_arg(a[1], offset) || offset < 0) return posix_error_tuple(p, EINVAL);
    int64_t n = write_all(f->fd, vec, offset);
    if (n < 0) return posix_error_tuple(p, errno);
    if (rest != NIL) return make_tuple(*p, {atom("continue"), make_integer(*p, n), rest});
    return am::ok;
}

Term seek_nif_3(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    int64_t offset;
    if (!int64_arg(a[2], offset)) return p->badarg();
    static const Term a_bof = atom("bof"), a_cur = atom("cur");
    int whence;
    if (a[1] == a_bof) whence = SEEK_SET;
    else if (a[1] == a_cur) whence = SEEK_CUR;
    else if (a[1] == am::eof) whence = SEEK_END;
    else return p->badarg();
    off_t pos = ::lseek(f->fd, offset, whence);
    if (pos < 0) return posix_error_tuple(p, errno);
    return make_tuple(*p, {am::ok, make_integer(*p, int64_t(pos))});
}

Term sync_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    if (!is_small(a[1])) return p->badarg();
    int rc = small_value(a[1]) ? ::fdatasync(f->fd) : ::fsync(f->fd);
    if (rc < 0) return posix_error_tuple(p, errno);
    return am::ok;
}

Term truncate_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    off_t pos = ::lseek(f->fd, 0, SEEK_CUR);
    if (pos < 0 || ::ftruncate(f->fd, pos) < 0) return posix_error_tuple(p, errno);
    return am::ok;
}

bool offset_length(Process* p, const Term* a, int64_t& offset, int64_t& length, Term& result) {
    if (!is_number(a[0]) || !is_number(a[1])) {
        result = p->badarg();
        return false;
    }
    if (!int64_arg(a[0], offset) || !int64_arg(a[1], length) || offset < 0 || length < 0) {
        result = posix_error_tuple(p, EINVAL);
        return false;
    }
    return true;
}

Term allocate_nif_3(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    int64_t offset, length;
    if (!offset_length(p, a + 1, offset, length, result)) return result;
    int rc;
    do rc = ::fallocate(f->fd, 0, offset, length);
    while (rc < 0 && errno == EINTR);
    if (rc < 0) {
        rc = ::posix_fallocate(f->fd, offset, length);
        if (rc != 0) return posix_error_tuple(p, rc);
    }
    return am::ok;
}

Term advise_nif_4(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    int64_t offset, length;
    if (!offset_length(p, a + 1, offset, length, result)) return result;
    static const struct {
        Term name;
        int advice;
    } advices[] = {
        {atom("normal"), POSIX_FADV_NORMAL},         {atom("random"), POSIX_FADV_RANDOM},
        {atom("sequential"), POSIX_FADV_SEQUENTIAL}, {atom("will_need"), POSIX_FADV_WILLNEED},
        {atom("dont_need"), POSIX_FADV_DONTNEED},    {atom("no_reuse"), POSIX_FADV_NOREUSE},
    };
    for (const auto& adv : advices) {
        if (a[3] != adv.name) continue;
        int rc = ::posix_fadvise(f->fd, offset, length, adv.advice);
        if (rc != 0) return posix_error_tuple(p, rc);
        return am::ok;
    }
    return posix_error_tuple(p, EINVAL);
}

// dets' indirect read: an 8-byte block at Offset holds a 32-bit size and a 32-bit position
// (big endian); the payload at that position is returned if its size is within MaxSize.
Term ipread_s32bu_p32bu_nif_3(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    if (!is_number(a[1]) || !is_number(a[2])) return p->badarg();
    int64_t offset, max_size;
    if (!int64_arg(a[1], offset) || !int64_arg(a[2], max_size) || offset < 0 || max_size >= (int64_t(1) << 31))
        return posix_error_tuple(p, EINVAL);
    uint8_t block[8];
    size_t got = 0;
    while (got < sizeof block) {
        ssize_t n = ::pread(f->fd, block + got, sizeof block - got, offset + int64_t(got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return posix_error_tuple(p, errno);
        if (n == 0) break;
        got += size_t(n);
    }
    if (got < sizeof block) return am::eof;
    uint32_t size = uint32_t(block[0]) << 24 | uint32_t(block[1]) << 16 | uint32_t(block[2]) << 8 | block[3];
    uint32_t where = uint32_t(block[4]) << 24 | uint32_t(block[5]) << 16 | uint32_t(block[6]) << 8 | block[7];
    if (int64_t(size) > max_size) return am::eof;
    Term data = size == 0 ? am::eof : read_binary(p, f->fd, size, where);
    if (is_tuple(data) && tuple_elem(data, 0) == am::error) return data;
    if (is_tuple(data)) data = tuple_elem(data, 1);
    Term info = make_tuple(*p, {make_integer(*p, size), make_integer(*p, where), data});
    return make_tuple(*p, {am::ok, info});
}

Term read_handle_info_nif_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::File)) [[unlikely]] return capability_denied(p, Capability::File);
    std::unique_lock<std::mutex> lock;
    Term result;
    FileHandle* f = locked_file(p, a[0], lock, result);
    if (!f) return result;
    struct stat st;
    if (::fstat(f->fd, &st) < 0) return posix_error_tuple(p, errno);
    return file_info_tuple(p, st, nullptr, f->fd);
}

constexpr BifSpec table[] = {
    {"prim_file", "read_nif", 2, &read_nif_2},
    {"prim_file", "pread_nif", 3, &pread_nif_3},
    {"prim_file", "write_nif", 2, &write_nif_2},
    {"prim_file", "pwrite_nif", 3, &pwrite_nif_3},
    {"prim_file", "seek_nif", 3, &seek_nif_3},
    {"prim_file", "sync_nif", 2, &sync_nif_2},
    {"prim_file", "truncate_nif", 1, &truncate_nif_1},
    {"prim_file", "allocate_nif", 3, &allocate_nif_3},
    {"prim_file", "advise_nif", 4, &advise_nif_4},
    {"prim_file", "ipread_s32bu_p32bu_nif", 3, &ipread_s32bu_p32bu_nif_3},
    {"prim_file", "read_handle_info_nif", 1, &read_handle_info_nif_1},
};

}  // namespace

std::span<const BifSpec> prim_file_io_bifs() { return table; }

}  // namespace beam

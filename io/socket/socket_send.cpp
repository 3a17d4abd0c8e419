// prim_socket's sending natives: nif_send/4, nif_sendto/5, nif_sendmsg/5 and nif_sendfile/1,4,5.
// Answers (prim_socket_nif.c's send_check_result): `ok` when all was sent; {ok, Written} for
// a datagram sent in part; `select` / {select, Written} when the rest must wait for the
// descriptor (the caller is then the current writer and gets the select message);
// {iov, Written} when sendmsg sent all it could pass at once (IOV_MAX) and must be called
// again; {error, Reason}. A process that finds another one writing is queued (`select`).
#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "bifs/prim_file.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "io/socket/socket_cmsg.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/vm.hpp"

namespace beam::esock {

namespace {

// The bytes of a binary term (copied only when it does not start on a byte).
const uint8_t* bytes_of(Term bin, size_t& n, std::string& scratch) {
    BitView v = bit_view(bin);
    n = v.byte_size();
    if (v.byte_aligned()) return v.bytes();
    scratch.resize(n);
    copy_bits(v.base, v.bit_offset, reinterpret_cast<uint8_t*>(scratch.data()), 0, v.bit_size);
    return reinterpret_cast<const uint8_t*>(scratch.data());
}

// Not the current writer: queue behind it (send_check_writer). False with `result` set when
// the caller must not send now.
bool check_writer(Socket& s, Process* p, Term ref, Term& result) {
    if (!s.writer || s.writer->pid == p->pid) return true;
    if (queued_pid(s.writers, p->pid)) {
        result = raise_invalid(p, atom("state"));
        return false;
    }
    s.writers.push_back(make_requestor(s, p, ref));
    result = atom("select");
    return false;
}

void writer_done(Socket& s, Term sockref) {
    if (!s.writer) return;
    if (!activate_next(s, sockref, s.writer, s.writers, true)) s.writer.reset();
}

// written < 0: nothing sent (would block).
Term send_retry(Socket& s, Process* p, Term sockref, Term ref, ssize_t written) {
    if (written >= 0) {
        s.write_pkg_cnt += uint64_t(written);
        if (s.type != SOCK_STREAM) {
            // A datagram sent in part is done with.
            if (s.write_pkg_cnt > s.cnt.write_pkg_max) s.cnt.write_pkg_max = s.write_pkg_cnt;
            s.write_pkg_cnt = 0;
            writer_done(s, sockref);
            return make_tuple(*p, {am::ok, make_integer(*p, written)});
        }
    }
    if (!s.writer) s.writer = make_requestor(s, p, ref);
    else s.writer->ref = HeldTerm(ref);
    if (ref == atom("iov")) return make_tuple(*p, {atom("iov"), make_integer(*p, written)});
    select_arm(s, sockref, true, p->pid, ref);
    s.cnt.write_waits++;
    if (written >= 0) return make_tuple(*p, {atom("select"), make_integer(*p, written)});
    return atom("select");
}

Term send_result(Socket& s, Process* p, Term sockref, Term ref, ssize_t r, size_t size, bool data_in_tail) {
    s.cnt.write_tries++;
    if (r < 0) {
        int err = errno;
        if (err == EAGAIN || err == EINTR) return send_retry(s, p, sockref, ref, -1);
        s.cnt.write_fails++;
        Term reason = posix_error_atom(err);
        // Anything but invalid input is fatal for every waiting writer.
        if (err != EINVAL) fail_waiting(s, sockref, s.writer, s.writers, reason);
        return error_tuple(p, reason);
    }
    s.cnt.write_byte += uint64_t(r);
    if (size_t(r) < size) return send_retry(s, p, sockref, ref, r);
    if (data_in_tail) return send_retry(s, p, sockref, atom("iov"), r);
    s.cnt.write_pkg++;
    s.write_pkg_cnt += uint64_t(r);
    if (s.write_pkg_cnt > s.cnt.write_pkg_max) s.cnt.write_pkg_max = s.write_pkg_cnt;
    s.write_pkg_cnt = 0;
    writer_done(s, sockref);
    return am::ok;
}

// The checks every send variant makes first (esock_send's): closed, connecting, queued.
bool may_send(Socket& s, Process* p, Term ref, Term& result) {
    if (!is_open(s.wstate)) return result = error_tuple(p, atom("closed")), false;
    if (s.connector) return result = error_invalid(p, atom("state")), false;
    return check_writer(s, p, ref, result);
}

bool flags_arg(Process* p, Term t, int& flags, Term& result) {
    if (get_int(t, flags)) return true;
    result = is_integer(t) ? integer_range(p, t) : p->badarg();
    return false;
}

Term nif_send_4(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s || !is_ref(a[3]) || !is_binary(a[1])) return p->badarg();
    int flags;
    Term result;
    if (!flags_arg(p, a[2], flags, result)) return result;
    std::lock_guard lock(s->mu);
    if (!may_send(*s, p, a[3], result)) return result;
    std::string scratch;
    size_t n;
    const uint8_t* data = bytes_of(a[1], n, scratch);
    ssize_t r = ::send(s->fd, data, n, flags | MSG_NOSIGNAL);
    return send_result(*s, p, a[0], a[3], r, n, false);
}

Term nif_sendto_5(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s || !is_ref(a[4]) || !is_binary(a[1])) return p->badarg();
    int flags;
    Term result;
    if (!flags_arg(p, a[3], flags, result)) return result;
    SockAddr to;
    socklen_t tolen = 0;
    if (!decode_sockaddr(a[2], to, tolen)) return invalid_tuple(p, atom("sockaddr"));
    std::lock_guard lock(s->mu);
    if (!may_send(*s, p, a[4], result)) return result;
    std::string scratch;
    size_t n;
    const uint8_t* data = bytes_of(a[1], n, scratch);
    ssize_t r = ::sendto(s->fd, data, n, flags | MSG_NOSIGNAL, &to.sa, tolen);
    return send_result(*s, p, a[0], a[4], r, n, false);
}

// nif_sendmsg(SockRef, Msg, Flags, SendRef, IOV): Msg's addr and ctrl, IOV's binaries.
Term nif_sendmsg_5(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s || !is_ref(a[3]) || !is_map(a[1])) return p->badarg();
    int flags;
    Term result;
    if (!flags_arg(p, a[2], flags, result)) return result;
    std::vector<Term> iov_terms;
    if (!list_elements(a[4], iov_terms)) return invalid_tuple(p, atom("iov"));
    for (Term b : iov_terms)
        if (!is_binary(b)) return invalid_tuple(p, atom("iov"));
    SockAddr to;
    socklen_t tolen = 0;
    if (const Term* addr = map_get(a[1], atom("addr")))
        if (!decode_sockaddr(*addr, to, tolen)) return invalid_tuple(p, atom("addr"));
    std::string ctrl;
    if (const Term* c = map_get(a[1], atom("ctrl")))
        if (!encode_cmsgs(*c, ctrl)) return invalid_tuple(p, atom("ctrl"));
    std::lock_guard lock(s->mu);
    if (!may_send(*s, p, a[3], result)) return result;
    // At most IOV_MAX parts a call: the rest goes with the next ({iov, Written}); a datagram
    // must go whole.
    if (iov_terms.size() > IOV_MAX && s->type != SOCK_STREAM) return invalid_tuple(p, atom("iov"));
    size_t count = iov_terms.size() > IOV_MAX ? IOV_MAX : iov_terms.size();
    std::vector<iovec> iov(count);
    std::vector<std::string> scratch(count);
    size_t total = 0;
    for (size_t i = 0; i < count; ++i) {
        size_t n;
        iov[i].iov_base = const_cast<uint8_t*>(bytes_of(iov_terms[i], n, scratch[i]));
        iov[i].iov_len = n;
        total += n;
    }
    msghdr mh{};
    mh.msg_name = tolen ? &to : nullptr;
    mh.msg_namelen = tolen;
    mh.msg_iov = iov.data();
    mh.msg_iovlen = count;
    mh.msg_control = ctrl.empty() ? nullptr : ctrl.data();
    mh.msg_controllen = ctrl.size();
    ssize_t r = ::sendmsg(s->fd, &mh, flags | MSG_NOSIGNAL);
    return send_result(*s, p, a[0], a[3], r, total, count < iov_terms.size());
}

// nif_sendfile(SockRef, SendRef, Offset, Count[, InFileRef]): the file is a prim_file
// handle; the socket keeps a duplicate of its descriptor for the continuation calls
// (without InFileRef).
Term sendfile(Process* p, const Term* a, bool first) {
    Socket* s = socket_of(a[0]);
    if (!s || !is_ref(a[1])) return p->badarg();
    int64_t offset;
    uint64_t count;
    if (!int64_arg(a[2], offset) || !get_uint64(a[3], count)) return p->badarg();
    std::lock_guard lock(s->mu);
    Term result;
    if (!may_send(*s, p, a[1], result)) return result;
    if (first) {
        auto* f = magic_cast<FileHandle>(a[4]);
        if (!f) return p->badarg();
        std::lock_guard flock(f->mutex);
        if (f->fd < 0) return error_tuple(p, atom("badf"));
        if (s->sendfile_fd >= 0) ::close(s->sendfile_fd);
        s->sendfile_fd = ::fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
        if (s->sendfile_fd < 0) return errno_tuple(p, errno);
    } else if (s->sendfile_fd < 0) {
        return raise_invalid(p, atom("state"));
    }
    uint64_t sent = 0;
    off_t off = off_t(offset);
    for (;;) {
        size_t chunk = count == 0 ? size_t(1) << 30 : size_t(count - sent);
        if (count != 0 && sent >= count) break;
        ssize_t r = ::sendfile(s->fd, s->sendfile_fd, &off, chunk);
        s->cnt.write_tries++;
        if (r > 0) {
            sent += uint64_t(r);
            s->cnt.write_byte += uint64_t(r);
            continue;
        }
        if (r == 0) break;  // end of file
        int err = errno;
        if (err == EINTR) continue;
        if (err == EAGAIN) {
            if (!s->writer) s->writer = make_requestor(*s, p, a[1]);
            else s->writer->ref = HeldTerm(a[1]);
            select_arm(*s, a[0], true, p->pid, a[1]);
            s->cnt.write_waits++;
            if (sent == 0) return atom("select");
            return make_tuple(*p, {atom("select"), make_integer_u(*p, sent)});
        }
        s->cnt.write_fails++;
        ::close(s->sendfile_fd);
        s->sendfile_fd = -1;
        Term reason = posix_error_atom(err);
        fail_waiting(*s, a[0], s->writer, s->writers, reason);
        return error_tuple(p, reason);
    }
    ::close(s->sendfile_fd);
    s->sendfile_fd = -1;
    writer_done(*s, a[0]);
    return make_tuple(*p, {am::ok, make_integer_u(*p, sent)});
}

Term nif_sendfile_5(Process* p, const Term* a) { return sendfile(p, a, true); }
Term nif_sendfile_4(Process* p, const Term* a) { return sendfile(p, a, false); }

// The socket registry's deferred close of a sendfile descriptor (after the socket closed).
Term nif_sendfile_1(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    std::lock_guard lock(s->mu);
    if (s->sendfile_fd >= 0) ::close(s->sendfile_fd);
    s->sendfile_fd = -1;
    return am::ok;
}

constexpr BifSpec table[] = {
    {"prim_socket", "nif_send", 4, &nif_send_4},
    {"prim_socket", "nif_sendto", 5, &nif_sendto_5},
    {"prim_socket", "nif_sendmsg", 5, &nif_sendmsg_5},
    {"prim_socket", "nif_sendfile", 5, &nif_sendfile_5},
    {"prim_socket", "nif_sendfile", 4, &nif_sendfile_4},
    {"prim_socket", "nif_sendfile", 1, &nif_sendfile_1},
};

}  // namespace

}  // namespace beam::esock

namespace beam {
std::span<const BifSpec> prim_socket_send_bifs() { return esock::table; }
}  // namespace beam

// prim_socket's receiving natives: nif_recv/4, nif_recvfrom/4 and nif_recvmsg/5. Answers
// (prim_socket_nif.c's recv_check_result and friends): {ok, Data}; {more, Data} when a
// stream read of "all" filled the buffer and may go on; `select` when nothing could be read
// (the caller becomes the current reader and gets the select message); {select, Data} for
// part of a stream read of a given length; `ok` for a poll (RecvRef `zero`, timeout 0) that
// found nothing; {error, Reason}. A process that finds another one reading is queued.
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "io/socket/socket_cmsg.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/vm.hpp"

namespace beam::esock {

namespace {

// recv_check_reader: false with `result` when the caller must wait its turn.
bool check_reader(Socket& s, Process* p, Term ref, Term& result) {
    if (!s.reader || s.reader->pid == p->pid) return true;
    if (queued_pid(s.readers, p->pid)) {
        result = raise_invalid(p, atom("state"));
        return false;
    }
    if (ref == atom("zero")) return true;  // a poll reads whoever else waits
    s.readers.push_back(make_requestor(s, p, ref));
    result = atom("select");
    return false;
}

// The caller is (still) the current reader, now waiting with `ref`.
void become_reader(Socket& s, Process* p, Term ref) {
    if (!s.reader) s.reader = make_requestor(s, p, ref);
    else s.reader->ref = HeldTerm(ref);
}

// This read is done: the next queued reader (if any) gets its turn.
void reader_done(Socket& s, Term sockref) {
    if (!s.reader) return;
    if (!activate_next(s, sockref, s.reader, s.readers, false)) s.reader.reset();
}

void packet_done(Socket& s, size_t n) {
    s.cnt.read_pkg++;
    s.read_pkg_cnt += n;
    if (s.read_pkg_cnt > s.cnt.read_pkg_max) s.cnt.read_pkg_max = s.read_pkg_cnt;
    s.read_pkg_cnt = 0;
}

// A failed read (recv_check_fail).
Term read_failed(Socket& s, Process* p, Term sockref, Term ref, int err) {
    if (err == EAGAIN || err == EWOULDBLOCK) {
        if (ref == atom("zero")) return am::ok;
        s.rnum_cnt = 0;
        become_reader(s, p, ref);
        select_arm(s, sockref, false, p->pid, ref);
        s.cnt.read_waits++;
        return atom("select");
    }
    s.cnt.read_fails++;
    Term reason = posix_error_atom(err);
    fail_waiting(s, sockref, s.reader, s.readers, reason);
    return error_tuple(p, reason);
}

Term stream_closed(Socket& s, Process* p, Term sockref) {
    fail_waiting(s, sockref, s.reader, s.readers, atom("closed"));
    return error_tuple(p, atom("closed"));
}

// The argument checks recv and recvfrom share; false with `result` set.
bool recv_args(Process* p, const Term* a, Socket*& s, uint64_t& len, int& flags, Term& result) {
    s = socket_of(a[0]);
    if (!s || (!is_ref(a[3]) && a[3] != atom("zero"))) return result = p->badarg(), false;
    bool len_ok = get_uint64(a[1], len), flags_ok = get_int(a[2], flags);
    if (!len_ok || !flags_ok) {
        if (!is_integer(a[1]) || !is_integer(a[2])) return result = p->badarg(), false;
        result = integer_range(p, len_ok ? a[2] : a[1]);
        return false;
    }
    return true;
}

bool may_read(Socket& s, Process* p, Term ref, Term& result) {
    if (!is_open(s.rstate)) return result = error_tuple(p, atom("closed")), false;
    if (s.acceptor) return result = error_invalid(p, atom("state")), false;
    return check_reader(s, p, ref, result);
}

Term nif_recv_4(Process* p, const Term* a) {
    Socket* s;
    uint64_t len;
    int flags;
    Term result;
    if (!recv_args(p, a, s, len, flags, result)) return result;
    Term sockref = a[0], ref = a[3];
    std::lock_guard lock(s->mu);
    if (!may_read(*s, p, ref, result)) return result;
    size_t size = len != 0 ? size_t(len) : s->rbuf_size;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, size, &data);
    ssize_t r;
    do r = ::recv(s->fd, data, size, flags);
    while (r < 0 && errno == EINTR);
    s->cnt.read_tries++;
    if (r < 0) return read_failed(*s, p, sockref, ref, errno);
    if (r == 0 && s->type == SOCK_STREAM) return stream_closed(*s, p, sockref);
    s->cnt.read_byte += uint64_t(r);
    if (size_t(r) == size) {
        if (len == 0 && s->type == SOCK_STREAM) {
            // Asked for all there is and filled the buffer: maybe more (recv_check_full).
            s->read_pkg_cnt += size_t(r);
            if (++s->rnum_cnt >= s->rnum) {
                s->rnum_cnt = 0;
                if (s->read_pkg_cnt > s->cnt.read_pkg_max) s->cnt.read_pkg_max = s->read_pkg_cnt;
                s->read_pkg_cnt = 0;
                s->cnt.read_pkg++;
                reader_done(*s, sockref);
                return make_tuple(*p, {am::ok, bin});
            }
            become_reader(*s, p, ref);
            return make_tuple(*p, {atom("more"), bin});
        }
        packet_done(*s, size_t(r));
        reader_done(*s, sockref);
        return make_tuple(*p, {am::ok, bin});
    }
    Term part = make_sub_binary(*p, bin, 0, size_t(r) * 8);
    if (len == 0 || s->type != SOCK_STREAM || ref == atom("zero")) {
        s->rnum_cnt = 0;
        packet_done(*s, size_t(r));
        reader_done(*s, sockref);
        return make_tuple(*p, {am::ok, part});
    }
    // Part of a stream read of a given length: the caller waits for the rest.
    s->read_pkg_cnt += size_t(r);
    become_reader(*s, p, ref);
    select_arm(*s, sockref, false, p->pid, ref);
    return make_tuple(*p, {atom("select"), part});
}

Term nif_recvfrom_4(Process* p, const Term* a) {
    Socket* s;
    uint64_t len;
    int flags;
    Term result;
    if (!recv_args(p, a, s, len, flags, result)) return result;
    Term sockref = a[0], ref = a[3];
    std::lock_guard lock(s->mu);
    if (!may_read(*s, p, ref, result)) return result;
    size_t size = len != 0 ? size_t(len) : s->rbuf_size;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, size, &data);
    SockAddr from{};
    socklen_t fromlen = sizeof from;
    ssize_t r;
    do r = ::recvfrom(s->fd, data, size, flags, &from.sa, &fromlen);
    while (r < 0 && errno == EINTR);
    s->cnt.read_tries++;
    if (r < 0) return read_failed(*s, p, sockref, ref, errno);
    if (r == 0 && s->type == SOCK_STREAM) return error_tuple(p, atom("closed"));
    s->cnt.read_byte += uint64_t(r);
    packet_done(*s, size_t(r));
    reader_done(*s, sockref);
    Term payload = size_t(r) == size ? bin : make_sub_binary(*p, bin, 0, size_t(r) * 8);
    return make_tuple(*p, {am::ok, make_tuple(*p, {encode_sockaddr(p, from, fromlen), payload})});
}

Term msg_flags(Process* p, int flags) {
    static const std::pair<int, const char*> names[] = {
        {MSG_CMSG_CLOEXEC, "cmsg_cloexec"}, {MSG_CONFIRM, "confirm"}, {MSG_CTRUNC, "ctrunc"},
        {MSG_DONTROUTE, "dontroute"},       {MSG_EOR, "eor"},         {MSG_ERRQUEUE, "errqueue"},
        {MSG_MORE, "more"},                 {MSG_NOSIGNAL, "nosignal"}, {MSG_OOB, "oob"},
        {MSG_PEEK, "peek"},                 {MSG_TRUNC, "trunc"}};
    std::vector<Term> out;
    for (auto [f, name] : names) {
        if (flags == 0) break;
        if ((flags & f) == f) {
            flags &= ~f;
            out.push_back(atom(name));
        }
    }
    if (flags != 0) out.push_back(make_integer(*p, flags));
    return make_list_from(*p, out.data(), out.size());
}

// nif_recvmsg(SockRef, BufSz, CtrlSz, Flags, RecvRef) -> {ok, #{iov, ctrl, flags[, addr]}}.
Term nif_recvmsg_5(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s || (!is_ref(a[4]) && a[4] != atom("zero"))) return p->badarg();
    uint64_t bufsz, ctrlsz;
    int flags;
    bool ok1 = get_uint64(a[1], bufsz), ok2 = get_uint64(a[2], ctrlsz), ok3 = get_int(a[3], flags);
    if (!ok1 || !ok2 || !ok3) {
        if (!is_integer(a[1]) || !is_integer(a[2]) || !is_integer(a[3])) return p->badarg();
        return integer_range(p, !ok1 ? a[1] : !ok2 ? a[2] : a[3]);
    }
    Term sockref = a[0], ref = a[4];
    std::lock_guard lock(s->mu);
    Term result;
    if (!may_read(*s, p, ref, result)) return result;
    size_t size = bufsz != 0 ? size_t(bufsz) : s->rbuf_size;
    size_t csize = ctrlsz != 0 ? size_t(ctrlsz) : s->rctrl_size;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, size, &data);
    std::string ctrl(csize, '\0');
    SockAddr from{};
    iovec iov{data, size};
    msghdr mh{};
    mh.msg_name = &from;
    mh.msg_namelen = sizeof from;
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = ctrl.data();
    mh.msg_controllen = ctrl.size();
    ssize_t r;
    do r = ::recvmsg(s->fd, &mh, flags);
    while (r < 0 && errno == EINTR);
    s->cnt.read_tries++;
    if (r < 0) return read_failed(*s, p, sockref, ref, errno);
    if (r == 0 && s->type == SOCK_STREAM) return stream_closed(*s, p, sockref);
    s->cnt.read_byte += uint64_t(r);
    packet_done(*s, size_t(r));
    Term payload = size_t(r) == size ? bin : make_sub_binary(*p, bin, 0, size_t(r) * 8);
    Term iov_list = make_list_from(*p, &payload, 1);
    Term ctrl_list = decode_cmsgs(p, mh);
    Term msg;
    if (mh.msg_namelen != 0)
        msg = make_atom_map(p, {{"iov", iov_list}, {"ctrl", ctrl_list}, {"flags", msg_flags(p, mh.msg_flags)},
                                {"addr", encode_sockaddr(p, from, mh.msg_namelen)}});
    else
        msg = make_atom_map(p, {{"iov", iov_list}, {"ctrl", ctrl_list}, {"flags", msg_flags(p, mh.msg_flags)}});
    reader_done(*s, sockref);
    return make_tuple(*p, {am::ok, msg});
}

constexpr BifSpec table[] = {
    {"prim_socket", "nif_recv", 4, &nif_recv_4},
    {"prim_socket", "nif_recvfrom", 4, &nif_recvfrom_4},
    {"prim_socket", "nif_recvmsg", 5, &nif_recvmsg_5},
};

}  // namespace

}  // namespace beam::esock

namespace beam {
std::span<const BifSpec> prim_socket_recv_bifs() { return esock::table; }
}  // namespace beam

// errno → atom. The names are those of the C library's errno macros, lower-cased, which is
// what erl prints (erl_posix_str.c's erl_errno_id); a few aliases (EWOULDBLOCK = EAGAIN,
// EDEADLOCK = EDEADLK, EOPNOTSUPP = ENOTSUP on Linux) resolve to the name erl gives them (eagain, edeadlk, enotsup).
#include "bifs/posix_errors.hpp"

#include <cerrno>

#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"

namespace beam {

namespace {

const char* errno_name(int err) {
    switch (err) {
#define E(NAME, text) \
    case NAME: return text;
        E(EPERM, "eperm") E(ENOENT, "enoent") E(ESRCH, "esrch") E(EINTR, "eintr") E(EIO, "eio")
        E(ENXIO, "enxio") E(E2BIG, "e2big") E(ENOEXEC, "enoexec") E(EBADF, "ebadf")
        E(ECHILD, "echild") E(EAGAIN, "eagain") E(ENOMEM, "enomem") E(EACCES, "eacces")
        E(EFAULT, "efault") E(ENOTBLK, "enotblk") E(EBUSY, "ebusy") E(EEXIST, "eexist")
        E(EXDEV, "exdev") E(ENODEV, "enodev") E(ENOTDIR, "enotdir") E(EISDIR, "eisdir")
        E(EINVAL, "einval") E(ENFILE, "enfile") E(EMFILE, "emfile") E(ENOTTY, "enotty")
        E(ETXTBSY, "etxtbsy") E(EFBIG, "efbig") E(ENOSPC, "enospc") E(ESPIPE, "espipe")
        E(EROFS, "erofs") E(EMLINK, "emlink") E(EPIPE, "epipe") E(EDOM, "edom")
        E(ERANGE, "erange") E(EDEADLK, "edeadlk") E(ENAMETOOLONG, "enametoolong")
        E(ENOLCK, "enolck") E(ENOSYS, "enosys") E(ENOTEMPTY, "enotempty") E(ELOOP, "eloop")
        E(ENOMSG, "enomsg") E(EIDRM, "eidrm") E(ENOSTR, "enostr") E(ENODATA, "enodata")
        E(ETIME, "etime") E(ENOSR, "enosr") E(EREMOTE, "eremote") E(ENOLINK, "enolink")
        E(EPROTO, "eproto") E(EMULTIHOP, "emultihop") E(EBADMSG, "ebadmsg")
        E(EOVERFLOW, "eoverflow") E(EILSEQ, "eilseq") E(EUSERS, "eusers")
        E(ENOTSOCK, "enotsock") E(EDESTADDRREQ, "edestaddrreq") E(EMSGSIZE, "emsgsize")
        E(EPROTOTYPE, "eprototype") E(ENOPROTOOPT, "enoprotoopt")
        E(EPROTONOSUPPORT, "eprotonosupport") E(ESOCKTNOSUPPORT, "esocktnosupport")
        E(ENOTSUP, "enotsup") E(EPFNOSUPPORT, "epfnosupport")
        E(EAFNOSUPPORT, "eafnosupport") E(EADDRINUSE, "eaddrinuse")
        E(EADDRNOTAVAIL, "eaddrnotavail") E(ENETDOWN, "enetdown") E(ENETUNREACH, "enetunreach")
        E(ENETRESET, "enetreset") E(ECONNABORTED, "econnaborted") E(ECONNRESET, "econnreset")
        E(ENOBUFS, "enobufs") E(EISCONN, "eisconn") E(ENOTCONN, "enotconn")
        E(ESHUTDOWN, "eshutdown") E(ETOOMANYREFS, "etoomanyrefs") E(ETIMEDOUT, "etimedout")
        E(ECONNREFUSED, "econnrefused") E(EHOSTDOWN, "ehostdown")
        E(EHOSTUNREACH, "ehostunreach") E(EALREADY, "ealready") E(EINPROGRESS, "einprogress")
        E(ESTALE, "estale") E(EDQUOT, "edquot") E(ECANCELED, "ecanceled")
#undef E
    default: return "unknown";
    }
}

}  // namespace

Term posix_error_atom(int err) { return atom(errno_name(err)); }

Term posix_error_tuple(Process* p, int err) { return make_tuple(*p, {am::error, posix_error_atom(err)}); }

}  // namespace beam

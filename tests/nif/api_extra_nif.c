/* NIF library of tests/conformance/nif_api_extra.erl: calls the enif_* functions beyond terms,
 * binaries, maps, environments and resources (term types, hashes, the external format, time,
 * unique integers, system info, thread types, I/O vectors and queues, ports, printf) and
 * hands their results back as terms, so that the test prints the same lines on erl and on
 * beamvm. */
#define _POSIX_C_SOURCE 200809L  /* fileno, dup */
#include <erl_nif.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static ErlNifResourceType *ioq_type;

typedef struct {
    ErlNifIOQueue *q;
} ioq_holder;

static void ioq_dtor(ErlNifEnv *env, void *obj) {
    ioq_holder *h = obj;
    if (h->q) enif_ioq_destroy(h->q);
}

static int load(ErlNifEnv *env, void **priv, ERL_NIF_TERM info) {
    ioq_type = enif_open_resource_type(env, NULL, "ioq", ioq_dtor, ERL_NIF_RT_CREATE, NULL);
    return ioq_type ? 0 : 1;
}

static ERL_NIF_TERM atom(ErlNifEnv *env, const char *name) { return enif_make_atom(env, name); }
static ERL_NIF_TERM ok_or_error(ErlNifEnv *env, int ok) { return atom(env, ok ? "true" : "false"); }

/* ---- term types and hashes ---- */

static ERL_NIF_TERM term_type(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_int(env, enif_term_type(env, argv[0]));
}

static ERL_NIF_TERM hash(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    int type;
    ErlNifUInt64 salt;
    if (!enif_get_int(env, argv[0], &type) || !enif_get_uint64(env, argv[2], &salt)) return enif_make_badarg(env);
    return enif_make_uint64(env, enif_hash((ErlNifHash)type, argv[1], salt));
}

/* ---- the external term format ---- */

static ERL_NIF_TERM term_to_binary(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifBinary bin;
    if (!enif_term_to_binary(env, argv[0], &bin)) return atom(env, "error");
    return enif_make_binary(env, &bin);
}

static ERL_NIF_TERM binary_to_term(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifBinary bin;
    unsigned opts;
    ERL_NIF_TERM t;
    if (!enif_inspect_binary(env, argv[0], &bin) || !enif_get_uint(env, argv[1], &opts)) return enif_make_badarg(env);
    size_t used = enif_binary_to_term(env, bin.data, bin.size, &t, (ErlNifBinaryToTerm)opts);
    if (!used) return atom(env, "error");
    return enif_make_tuple2(env, t, enif_make_uint64(env, used));
}

/* ---- time and unique integers ---- */

static ERL_NIF_TERM time_value(ErlNifEnv *env, ErlNifTime t) {
    return t == ERL_NIF_TIME_ERROR ? atom(env, "time_error") : enif_make_int64(env, t);
}

static ERL_NIF_TERM monotonic_time(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    int unit;
    if (!enif_get_int(env, argv[0], &unit)) return enif_make_badarg(env);
    return time_value(env, enif_monotonic_time((ErlNifTimeUnit)unit));
}

static ERL_NIF_TERM time_offset(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    int unit;
    if (!enif_get_int(env, argv[0], &unit)) return enif_make_badarg(env);
    return time_value(env, enif_time_offset((ErlNifTimeUnit)unit));
}

static ERL_NIF_TERM convert_time_unit(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifSInt64 v;
    int from, to;
    if (!enif_get_int64(env, argv[0], &v) || !enif_get_int(env, argv[1], &from) || !enif_get_int(env, argv[2], &to))
        return enif_make_badarg(env);
    return time_value(env, enif_convert_time_unit(v, (ErlNifTimeUnit)from, (ErlNifTimeUnit)to));
}

static ERL_NIF_TERM now_time(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) { return enif_now_time(env); }
static ERL_NIF_TERM cpu_time(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) { return enif_cpu_time(env); }

static ERL_NIF_TERM unique_integer(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    int props;
    if (!enif_get_int(env, argv[0], &props)) return enif_make_badarg(env);
    return enif_make_unique_integer(env, (ErlNifUniqueInteger)props);
}

/* ---- threads and system info ---- */

typedef struct {
    int type;
    ErlNifTime mono;
} thread_report;

static void *report_thread(void *arg) {
    thread_report *r = arg;
    r->type = enif_thread_type();
    r->mono = enif_monotonic_time(ERL_NIF_MSEC);
    return NULL;
}

/* {type here, type in a thread of the library's own, monotonic time there} */
static ERL_NIF_TERM thread_types(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifTid tid;
    thread_report r = {-1, 0};
    if (enif_thread_create("api_extra", &tid, report_thread, &r, NULL) != 0) return atom(env, "no_thread");
    enif_thread_join(tid, NULL);
    return enif_make_tuple3(env, enif_make_int(env, enif_thread_type()), enif_make_int(env, r.type),
                            time_value(env, r.mono));
}

/* The fields enif_system_info wrote into a struct of `size` bytes that starts filled with
 * 0x5a bytes: a field still holding them is `untouched`. */
static ERL_NIF_TERM system_info(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    unsigned size;
    ErlNifSysInfo si, fill;
    if (!enif_get_uint(env, argv[0], &size)) return enif_make_badarg(env);
    if (size == 0) size = sizeof si;
    memset(&si, 0x5a, sizeof si);
    memset(&fill, 0x5a, sizeof fill);
    enif_system_info(&si, size);
#define INT_FIELD(f) (si.f == fill.f ? atom(env, "untouched") : enif_make_int(env, si.f))
#define STR_FIELD(f) (si.f == fill.f ? atom(env, "untouched") : enif_make_string(env, si.f, ERL_NIF_LATIN1))
    ERL_NIF_TERM fields[] = {
        INT_FIELD(driver_major_version), INT_FIELD(driver_minor_version), STR_FIELD(erts_version),
        STR_FIELD(otp_release), INT_FIELD(thread_support), INT_FIELD(smp_support), INT_FIELD(async_threads),
        INT_FIELD(scheduler_threads), INT_FIELD(nif_major_version), INT_FIELD(nif_minor_version),
        INT_FIELD(dirty_scheduler_support)};
    return enif_make_list_from_array(env, fields, sizeof fields / sizeof fields[0]);
}

/* sizeof ErlNifSysInfo up to and including smp_support / scheduler_threads / nif_minor_version */
static ERL_NIF_TERM system_info_sizes(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_tuple3(env, enif_make_uint(env, offsetof(ErlNifSysInfo, async_threads)),
                            enif_make_uint(env, offsetof(ErlNifSysInfo, nif_major_version)),
                            enif_make_uint(env, offsetof(ErlNifSysInfo, dirty_scheduler_support)));
}

/* ---- I/O vectors ---- */

static ERL_NIF_TERM iovec_to_term(ErlNifEnv *env, ErlNifIOVec *iov, ERL_NIF_TERM tail) {
    ERL_NIF_TERM list = enif_make_list(env, 0);
    int all_refs = 1;
    for (int i = iov->iovcnt; i-- > 0;) {
        ERL_NIF_TERM b;
        unsigned char *p = enif_make_new_binary(env, iov->iov[i].iov_len, &b);
        memcpy(p, iov->iov[i].iov_base, iov->iov[i].iov_len);
        list = enif_make_list_cell(env, b, list);
        if (!iov->ref_bins[i]) all_refs = 0;
    }
    return enif_make_tuple5(env, enif_make_int(env, iov->iovcnt), enif_make_uint64(env, iov->size), list, tail,
                            ok_or_error(env, all_refs));
}

/* inspect_iovec(List, Max, WithEnv, Prealloc) */
static ERL_NIF_TERM inspect_iovec(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    unsigned max;
    int with_env, prealloc;
    ErlNifIOVec stack_iov, *iov = NULL;
    ERL_NIF_TERM tail, result;
    if (!enif_get_uint(env, argv[1], &max) || !enif_get_int(env, argv[2], &with_env) ||
        !enif_get_int(env, argv[3], &prealloc))
        return enif_make_badarg(env);
    if (prealloc) iov = &stack_iov;
    if (!enif_inspect_iovec(with_env ? env : NULL, max, argv[0], &tail, &iov)) return atom(env, "error");
    result = iovec_to_term(env, iov, tail);
    result = enif_make_tuple2(env, result, ok_or_error(env, iov == &stack_iov));
    if (!with_env) enif_free_iovec(iov);
    return result;
}

/* ---- I/O queues ---- */

static ErlNifIOQueue *get_ioq(ErlNifEnv *env, ERL_NIF_TERM t) {
    ioq_holder *h;
    return enif_get_resource(env, t, ioq_type, (void **)&h) ? h->q : NULL;
}

static ERL_NIF_TERM ioq_new(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ioq_holder *h = enif_alloc_resource(ioq_type, sizeof *h);
    ERL_NIF_TERM t;
    h->q = enif_ioq_create(ERL_NIF_IOQ_NORMAL);
    t = enif_make_resource(env, h);
    enif_release_resource(h);
    return t;
}

static ERL_NIF_TERM ioq_create_bad(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue *q = enif_ioq_create((ErlNifIOQueueOpts)2);
    if (q) enif_ioq_destroy(q);
    return ok_or_error(env, q == NULL);
}

/* ioq_enq_binary(Q, Bin, Skip, Copy): Copy puts the bytes in a binary of the library's own
 * (enif_alloc_binary) instead of the term's (an inspected binary, no ref_bin). */
static ERL_NIF_TERM ioq_enq_binary(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue *q = get_ioq(env, argv[0]);
    ErlNifBinary in, bin;
    unsigned skip;
    int copy;
    if (!q || !enif_inspect_binary(env, argv[1], &in) || !enif_get_uint(env, argv[2], &skip) ||
        !enif_get_int(env, argv[3], &copy))
        return enif_make_badarg(env);
    if (copy) {
        enif_alloc_binary(in.size, &bin);
        memcpy(bin.data, in.data, in.size);
    } else {
        bin = in;
    }
    return ok_or_error(env, enif_ioq_enq_binary(q, &bin, skip));
}

/* ioq_enqv(Q, List, Skip, WithEnv): the whole list as one iovec. */
static ERL_NIF_TERM ioq_enqv(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue *q = get_ioq(env, argv[0]);
    ErlNifIOVec stack_iov, *iov = &stack_iov;
    ERL_NIF_TERM tail;
    unsigned skip;
    int with_env, ok;
    if (!q || !enif_get_uint(env, argv[2], &skip) || !enif_get_int(env, argv[3], &with_env)) return enif_make_badarg(env);
    if (!enif_inspect_iovec(with_env ? env : NULL, ~(size_t)0, argv[1], &tail, &iov)) return atom(env, "error");
    ok = enif_ioq_enqv(q, iov, skip);
    if (!with_env) enif_free_iovec(iov);
    return ok_or_error(env, ok);
}

static ERL_NIF_TERM ioq_size(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue *q = get_ioq(env, argv[0]);
    if (!q) return enif_make_badarg(env);
    return enif_make_uint64(env, enif_ioq_size(q));
}

static ERL_NIF_TERM ioq_peek(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue *q = get_ioq(env, argv[0]);
    int n;
    SysIOVec *v;
    ERL_NIF_TERM list;
    if (!q) return enif_make_badarg(env);
    v = enif_ioq_peek(q, &n);
    list = enif_make_list(env, 0);
    for (int i = n; i-- > 0;) {
        ERL_NIF_TERM b;
        unsigned char *p = enif_make_new_binary(env, v[i].iov_len, &b);
        memcpy(p, v[i].iov_base, v[i].iov_len);
        list = enif_make_list_cell(env, b, list);
    }
    return enif_make_tuple2(env, enif_make_int(env, n), list);
}

static ERL_NIF_TERM ioq_peek_head(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue *q = get_ioq(env, argv[0]);
    size_t size;
    ERL_NIF_TERM head;
    if (!q) return enif_make_badarg(env);
    if (!enif_ioq_peek_head(env, q, &size, &head)) return atom(env, "false");
    return enif_make_tuple2(env, enif_make_uint64(env, size), head);
}

static ERL_NIF_TERM ioq_deq(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue *q = get_ioq(env, argv[0]);
    ErlNifUInt64 n;
    size_t left = 12345;
    if (!q || !enif_get_uint64(env, argv[1], &n)) return enif_make_badarg(env);
    if (!enif_ioq_deq(q, n, &left)) return enif_make_tuple2(env, atom(env, "false"), enif_make_uint64(env, left));
    return enif_make_tuple2(env, atom(env, "true"), enif_make_uint64(env, left));
}

/* ---- ports ---- */

static ERL_NIF_TERM port_command(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPort port;
    if (!enif_get_local_port(env, argv[0], &port)) return atom(env, "not_a_port");
    return ok_or_error(env, enif_port_command(env, &port, NULL, argv[1]));
}

static ERL_NIF_TERM port_command_env(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPort port;
    ErlNifEnv *msg_env = enif_alloc_env();
    int ok;
    if (!enif_get_local_port(env, argv[0], &port)) return atom(env, "not_a_port");
    ok = enif_port_command(env, &port, msg_env, enif_make_copy(msg_env, argv[1]));
    enif_free_env(msg_env);
    return ok_or_error(env, ok);
}

static ERL_NIF_TERM is_port_alive(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPort port;
    if (!enif_get_local_port(env, argv[0], &port)) return atom(env, "not_a_port");
    return ok_or_error(env, enif_is_port_alive(env, &port));
}

static ERL_NIF_TERM whereis_port(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPort port;
    if (!enif_whereis_port(env, argv[0], &port)) return atom(env, "false");
    return enif_make_tuple2(env, atom(env, "port"), enif_make_int(env, enif_compare(port.port_id, argv[1]) == 0));
}

/* ---- printf ---- */

#define BUF_CAP 256

static int get_format(ErlNifEnv *env, ERL_NIF_TERM t, char *fmt, unsigned *size, ERL_NIF_TERM size_term) {
    return enif_get_string(env, t, fmt, BUF_CAP, ERL_NIF_LATIN1) > 0 && enif_get_uint(env, size_term, size) &&
           *size <= BUF_CAP;
}

static ERL_NIF_TERM printed(ErlNifEnv *env, int ret, const char *buf, unsigned size) {
    return enif_make_tuple2(env, enif_make_int(env, ret),
                            size ? enif_make_string(env, buf, ERL_NIF_LATIN1) : atom(env, "no_buffer"));
}

/* fmt_term(Format, Term, BufSize): Format has one conversion, taking the term. */
static ERL_NIF_TERM fmt_term(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    char fmt[BUF_CAP], buf[BUF_CAP];
    unsigned size;
    if (!get_format(env, argv[0], fmt, &size, argv[2])) return enif_make_badarg(env);
    return printed(env, enif_snprintf(buf, size, fmt, argv[1]), buf, size);
}

static ERL_NIF_TERM fmt_long(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    char fmt[BUF_CAP], buf[BUF_CAP];
    unsigned size;
    long v;
    if (!get_format(env, argv[0], fmt, &size, argv[2]) || !enif_get_long(env, argv[1], &v)) return enif_make_badarg(env);
    return printed(env, enif_snprintf(buf, size, fmt, v), buf, size);
}

static ERL_NIF_TERM fmt_int(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    char fmt[BUF_CAP], buf[BUF_CAP];
    unsigned size;
    int v;
    if (!get_format(env, argv[0], fmt, &size, argv[2]) || !enif_get_int(env, argv[1], &v)) return enif_make_badarg(env);
    return printed(env, enif_snprintf(buf, size, fmt, v), buf, size);
}

static ERL_NIF_TERM fmt_double(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    char fmt[BUF_CAP], buf[BUF_CAP];
    unsigned size;
    double v;
    if (!get_format(env, argv[0], fmt, &size, argv[2]) || !enif_get_double(env, argv[1], &v)) return enif_make_badarg(env);
    return printed(env, enif_snprintf(buf, size, fmt, v), buf, size);
}

static ERL_NIF_TERM fmt_string(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    char fmt[BUF_CAP], buf[BUF_CAP], s[BUF_CAP];
    unsigned size;
    if (!get_format(env, argv[0], fmt, &size, argv[2]) || enif_get_string(env, argv[1], s, BUF_CAP, ERL_NIF_LATIN1) <= 0)
        return enif_make_badarg(env);
    return printed(env, enif_snprintf(buf, size, fmt, s), buf, size);
}

/* A pointer made from an integer: %p's layout without depending on where memory is. */
static ERL_NIF_TERM fmt_pointer(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    char fmt[BUF_CAP], buf[BUF_CAP];
    unsigned size;
    unsigned long v;
    if (!get_format(env, argv[0], fmt, &size, argv[2]) || !enif_get_ulong(env, argv[1], &v)) return enif_make_badarg(env);
    return printed(env, enif_snprintf(buf, size, fmt, (void *)(uintptr_t)v), buf, size);
}

/* Several conversions in one call, %n and * included. */
static ERL_NIF_TERM fmt_mixed(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    char buf[BUF_CAP];
    int n1 = -1, n2 = -1;
    int ret = enif_snprintf(buf, sizeof buf, "[%d|%5s|%-6T|%n%*d|%.*s|%c%%%T%n]", -42, "ab", argv[0], &n1, 6, 7, 2,
                            "xyz", 'Q', argv[1], &n2);
    return enif_make_tuple4(env, enif_make_int(env, ret), enif_make_string(env, buf, ERL_NIF_LATIN1),
                            enif_make_int(env, n1), enif_make_int(env, n2));
}

/* enif_fprintf to a file of the library's own, read back: no CR is added there. */
static ERL_NIF_TERM fprintf_file(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    FILE *f = tmpfile();
    char buf[BUF_CAP];
    int ret;
    size_t n;
    if (!f) return atom(env, "no_tmpfile");
    ret = enif_fprintf(f, "file: %T\nnext %d\n", argv[0], 7);
    rewind(f);
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ERL_NIF_TERM bin;
    memcpy(enif_make_new_binary(env, n, &bin), buf, n);
    return enif_make_tuple2(env, enif_make_int(env, ret), bin);
}

/* enif_fprintf to stderr (erts writes "\r\n" for each "\n" there and on stdout), caught by
 * pointing descriptor 2 at a file for the call. */
static ERL_NIF_TERM fprintf_stderr(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    FILE *f = tmpfile();
    char buf[BUF_CAP];
    int ret, saved;
    size_t n;
    ERL_NIF_TERM bin;
    if (!f) return atom(env, "no_tmpfile");
    fflush(stderr);
    saved = dup(2);
    dup2(fileno(f), 2);
    ret = enif_fprintf(stderr, "stderr: %T\nsecond line\n", argv[0]);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    memcpy(enif_make_new_binary(env, n, &bin), buf, n);
    return enif_make_tuple2(env, enif_make_int(env, ret), bin);
}

/* ---- resource binaries ---- */

static ERL_NIF_TERM resource_binary(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
    unsigned size;
    if (!enif_get_uint(env, argv[0], &size)) return enif_make_badarg(env);
    unsigned char *data = enif_alloc_resource(ioq_type, sizeof(ioq_holder) + size);
    ((ioq_holder *)data)->q = NULL;
    for (unsigned i = 0; i < size; ++i) data[sizeof(ioq_holder) + i] = (unsigned char)(i * 7 + 1);
    ERL_NIF_TERM bin = enif_make_resource_binary(env, data, data + sizeof(ioq_holder), size);
    enif_release_resource(data);
    return bin;
}

static ErlNifFunc funcs[] = {
    {"term_type", 1, term_type, 0},
    {"hash", 3, hash, 0},
    {"term_to_binary", 1, term_to_binary, 0},
    {"binary_to_term", 2, binary_to_term, 0},
    {"monotonic_time", 1, monotonic_time, 0},
    {"time_offset", 1, time_offset, 0},
    {"convert_time_unit", 3, convert_time_unit, 0},
    {"now_time", 0, now_time, 0},
    {"cpu_time", 0, cpu_time, 0},
    {"unique_integer", 1, unique_integer, 0},
    {"thread_types", 0, thread_types, 0},
    {"system_info", 1, system_info, 0},
    {"system_info_sizes", 0, system_info_sizes, 0},
    {"inspect_iovec", 4, inspect_iovec, 0},
    {"ioq_new", 0, ioq_new, 0},
    {"ioq_create_bad", 0, ioq_create_bad, 0},
    {"ioq_enq_binary", 4, ioq_enq_binary, 0},
    {"ioq_enqv", 4, ioq_enqv, 0},
    {"ioq_size", 1, ioq_size, 0},
    {"ioq_peek", 1, ioq_peek, 0},
    {"ioq_peek_head", 1, ioq_peek_head, 0},
    {"ioq_deq", 2, ioq_deq, 0},
    {"port_command", 2, port_command, 0},
    {"port_command_env", 2, port_command_env, 0},
    {"is_port_alive", 1, is_port_alive, 0},
    {"whereis_port", 2, whereis_port, 0},
    {"fmt_term", 3, fmt_term, 0},
    {"fmt_long", 3, fmt_long, 0},
    {"fmt_int", 3, fmt_int, 0},
    {"fmt_double", 3, fmt_double, 0},
    {"fmt_string", 3, fmt_string, 0},
    {"fmt_pointer", 3, fmt_pointer, 0},
    {"fmt_mixed", 2, fmt_mixed, 0},
    {"fprintf_file", 1, fprintf_file, 0},
    {"fprintf_stderr", 1, fprintf_stderr, 0},
    {"resource_binary", 1, resource_binary, 0},
};

ERL_NIF_INIT(nif_api_extra, funcs, load, NULL, NULL, NULL)

/* Term construction and inspection through erl_nif.h, for tests/conformance/nif_terms.erl:
 * numbers at their C bounds, floats, atoms, latin-1 strings, tuples, lists, enif_term_type,
 * enif_compare/is_identical, enif_hash, the is_* predicates and the external term format.
 * Every NIF answers with a term built from what the inspection functions returned, so the
 * Erlang side prints values and never C-level addresses. */
#include <erl_nif.h>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static ERL_NIF_TERM atom(ErlNifEnv* env, const char* name) { return enif_make_atom(env, name); }

/* ints() -> the extreme values of every enif_make_* integer constructor. */
static ERL_NIF_TERM ints(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc; (void)argv;
    ERL_NIF_TERM items[] = {
        enif_make_int(env, INT_MIN),           enif_make_int(env, INT_MAX),
        enif_make_uint(env, UINT_MAX),         enif_make_long(env, LONG_MIN),
        enif_make_long(env, LONG_MAX),         enif_make_ulong(env, ULONG_MAX),
        enif_make_int64(env, INT64_MIN),       enif_make_int64(env, INT64_MAX),
        enif_make_uint64(env, UINT64_MAX),     enif_make_int64(env, 0),
        enif_make_int64(env, (1LL << 59) - 1), enif_make_int64(env, 1LL << 59),
        enif_make_int64(env, -(1LL << 59)),    enif_make_int64(env, -(1LL << 59) - 1),
    };
    return enif_make_list_from_array(env, items, sizeof items / sizeof items[0]);
}

/* get_ints(T) -> {Int, UInt, Long, ULong, Int64, UInt64}: what each getter read back, or
 * false where it refused T (out of range, a bignum beyond the C type, not an integer). */
static ERL_NIF_TERM get_ints(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    int i; unsigned u; long l; unsigned long ul; ErlNifSInt64 i64; ErlNifUInt64 u64;
    ERL_NIF_TERM f = atom(env, "false");
    return enif_make_tuple6(env,
        enif_get_int(env, argv[0], &i) ? enif_make_int(env, i) : f,
        enif_get_uint(env, argv[0], &u) ? enif_make_uint(env, u) : f,
        enif_get_long(env, argv[0], &l) ? enif_make_long(env, l) : f,
        enif_get_ulong(env, argv[0], &ul) ? enif_make_ulong(env, ul) : f,
        enif_get_int64(env, argv[0], &i64) ? enif_make_int64(env, i64) : f,
        enif_get_uint64(env, argv[0], &u64) ? enif_make_uint64(env, u64) : f);
}

/* make_double(Which) -> a double from C; non-finite ones are refused by enif_make_double
 * with a badarg exception. */
static ERL_NIF_TERM make_double(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    char which[16];
    if (!enif_get_atom(env, argv[0], which, sizeof which, ERL_NIF_LATIN1)) return enif_make_badarg(env);
    double d = 0.0;
    if (!strcmp(which, "tiny")) d = 4.9406564584124654e-324;
    else if (!strcmp(which, "huge")) d = 1.7976931348623157e308;
    else if (!strcmp(which, "neg_zero")) d = -0.0;
    else if (!strcmp(which, "third")) d = 1.0 / 3.0;
    else if (!strcmp(which, "inf")) d = INFINITY;
    else if (!strcmp(which, "nan")) d = NAN;
    return enif_make_double(env, d);
}

/* get_double(T) -> the double read back (times two, computed in C), or false. */
static ERL_NIF_TERM get_double(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    double d;
    if (!enif_get_double(env, argv[0], &d)) return atom(env, "false");
    return enif_make_double(env, d * 2);
}

/* atoms(Name) -> {made, made_len, existing_or_false, atom_length, read_back}. */
static ERL_NIF_TERM atoms(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    char name[300];
    int n = enif_get_string(env, argv[0], name, sizeof name, ERL_NIF_LATIN1);
    if (n <= 0) return enif_make_badarg(env);
    ERL_NIF_TERM existing;
    if (!enif_make_existing_atom(env, name, &existing, ERL_NIF_LATIN1)) existing = atom(env, "false");
    return enif_make_tuple3(env, enif_make_atom(env, name),
                            enif_make_atom_len(env, name, 3 < n - 1 ? 3 : (size_t)(n - 1)), existing);
}

/* atom_info(Atom) -> {Length, enif_get_atom into a big buffer, into one a byte short, Name}
 * or false for a non-atom. */
static ERL_NIF_TERM atom_info(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    unsigned len;
    char buf[300];
    if (!enif_get_atom_length(env, argv[0], &len, ERL_NIF_LATIN1)) return atom(env, "false");
    /* A buffer one byte short of the name and its NUL: enif_get_atom refuses it. */
    int short_buf = enif_get_atom(env, argv[0], buf, len, ERL_NIF_LATIN1);
    int written = enif_get_atom(env, argv[0], buf, sizeof buf, ERL_NIF_LATIN1);
    return enif_make_tuple4(env, enif_make_uint(env, len), enif_make_int(env, written),
                            enif_make_int(env, short_buf), enif_make_string(env, buf, ERL_NIF_LATIN1));
}

/* get_string(T, BufSize) -> {Result, Bytes}: enif_get_string's return (length with the NUL,
 * minus that when truncated, 0 when T is no latin-1 string) and what it wrote. */
static ERL_NIF_TERM get_string(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    unsigned size;
    char buf[256];
    if (!enif_get_uint(env, argv[1], &size) || size > sizeof buf) return enif_make_badarg(env);
    memset(buf, 0, sizeof buf);
    int r = enif_get_string(env, argv[0], buf, size, ERL_NIF_LATIN1);
    unsigned len = r > 0 ? (unsigned)r - 1 : r < 0 ? (unsigned)(-r) - 1 : 0;
    return enif_make_tuple2(env, enif_make_int(env, r), enif_make_string_len(env, buf, len, ERL_NIF_LATIN1));
}

/* make_strings() -> strings made from C bytes, latin-1 above 127 included. */
static ERL_NIF_TERM make_strings(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc; (void)argv;
    return enif_make_list3(env, enif_make_string(env, "", ERL_NIF_LATIN1),
                           enif_make_string(env, "abc\xe5\xff", ERL_NIF_LATIN1),
                           enif_make_string_len(env, "a\0b", 3, ERL_NIF_LATIN1));
}

/* tuples(T) -> {Arity, Elements as a list, a tuple rebuilt from them, small tuples from C}
 * or false when T is not a tuple. */
static ERL_NIF_TERM tuples(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    int arity;
    const ERL_NIF_TERM* elems;
    if (!enif_get_tuple(env, argv[0], &arity, &elems)) return atom(env, "false");
    return enif_make_tuple4(env, enif_make_int(env, arity), enif_make_list_from_array(env, elems, arity),
                            enif_make_tuple_from_array(env, elems, arity),
                            enif_make_tuple(env, 3, atom(env, "a"), enif_make_tuple(env, 0), atom(env, "c")));
}

/* lists(T) -> {Length or false, Cells walked as a list of heads plus the tail, Reverse or false}. */
static ERL_NIF_TERM lists(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    unsigned len;
    ERL_NIF_TERM length = enif_get_list_length(env, argv[0], &len) ? enif_make_uint(env, len) : atom(env, "false");
    ERL_NIF_TERM heads = enif_make_list(env, 0), head, tail = argv[0];
    unsigned walked = 0;
    while (walked < 1000 && enif_get_list_cell(env, tail, &head, &tail)) {
        heads = enif_make_list_cell(env, head, heads);
        walked++;
    }
    ERL_NIF_TERM walked_heads;
    enif_make_reverse_list(env, heads, &walked_heads);
    ERL_NIF_TERM rev;
    if (!enif_make_reverse_list(env, argv[0], &rev)) rev = atom(env, "false");
    return enif_make_tuple4(env, length, walked_heads, tail, rev);
}

/* make_lists() -> lists built by every constructor. */
static ERL_NIF_TERM make_lists(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc; (void)argv;
    ERL_NIF_TERM three[] = {enif_make_int(env, 1), enif_make_int(env, 2), enif_make_int(env, 3)};
    return enif_make_list4(env, enif_make_list(env, 0), enif_make_list_from_array(env, three, 3),
                           enif_make_list_cell(env, atom(env, "h"), atom(env, "improper")),
                           enif_make_list2(env, enif_make_list1(env, three[0]), enif_is_empty_list(env, enif_make_list(env, 0)) ? atom(env, "true") : atom(env, "false")));
}

static const char* term_type_name(ErlNifTermType t) {
    switch (t) {
    case ERL_NIF_TERM_TYPE_ATOM: return "atom";
    case ERL_NIF_TERM_TYPE_BITSTRING: return "bitstring";
    case ERL_NIF_TERM_TYPE_FLOAT: return "float";
    case ERL_NIF_TERM_TYPE_FUN: return "fun";
    case ERL_NIF_TERM_TYPE_INTEGER: return "integer";
    case ERL_NIF_TERM_TYPE_LIST: return "list";
    case ERL_NIF_TERM_TYPE_MAP: return "map";
    case ERL_NIF_TERM_TYPE_PID: return "pid";
    case ERL_NIF_TERM_TYPE_PORT: return "port";
    case ERL_NIF_TERM_TYPE_REFERENCE: return "reference";
    case ERL_NIF_TERM_TYPE_TUPLE: return "tuple";
    default: return "unknown";
    }
}

/* classify(T) -> {enif_term_type, [predicates that hold]}. */
static ERL_NIF_TERM classify(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ERL_NIF_TERM t = argv[0], preds = enif_make_list(env, 0);
#define PRED(fn) if (fn(env, t)) preds = enif_make_list_cell(env, atom(env, #fn + 5), preds)
    PRED(enif_is_atom); PRED(enif_is_binary); PRED(enif_is_ref); PRED(enif_is_fun);
    PRED(enif_is_pid); PRED(enif_is_port); PRED(enif_is_list); PRED(enif_is_tuple);
    PRED(enif_is_empty_list); PRED(enif_is_number); PRED(enif_is_map); PRED(enif_is_exception);
#undef PRED
    return enif_make_tuple2(env, atom(env, term_type_name(enif_term_type(env, t))), preds);
}

/* compare(A, B) -> {sign of enif_compare, enif_is_identical}. */
static ERL_NIF_TERM compare(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    int c = enif_compare(argv[0], argv[1]);
    return enif_make_tuple2(env, enif_make_int(env, (c > 0) - (c < 0)),
                            atom(env, enif_is_identical(argv[0], argv[1]) ? "true" : "false"));
}

/* hash(Kind, T, Salt) -> enif_hash. phash2 is stable across VMs; internal is not, so the
 * Erlang side only checks internal's consistency. */
static ERL_NIF_TERM hash(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifUInt64 salt;
    char kind[16];
    if (!enif_get_atom(env, argv[0], kind, sizeof kind, ERL_NIF_LATIN1) || !enif_get_uint64(env, argv[2], &salt))
        return enif_make_badarg(env);
    ErlNifHash type = !strcmp(kind, "phash2") ? ERL_NIF_PHASH2 : ERL_NIF_INTERNAL_HASH;
    return enif_make_uint64(env, enif_hash(type, argv[1], salt));
}

/* to_binary(T) -> enif_term_to_binary; from_binary(B, Safe) -> {Term, BytesRead} or false. */
static ERL_NIF_TERM to_binary(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifBinary bin;
    if (!enif_term_to_binary(env, argv[0], &bin)) return atom(env, "false");
    return enif_make_binary(env, &bin);
}

static ERL_NIF_TERM from_binary(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifBinary bin;
    if (!enif_inspect_binary(env, argv[0], &bin)) return enif_make_badarg(env);
    ERL_NIF_TERM t;
    size_t used = enif_binary_to_term(env, bin.data, bin.size, &t,
                                      enif_is_identical(argv[1], atom(env, "safe")) ? ERL_NIF_BIN2TERM_SAFE : 0);
    if (used == 0) return atom(env, "false");
    return enif_make_tuple2(env, t, enif_make_uint64(env, used));
}

/* pids(Pid) -> facts about enif_self, enif_get_local_pid, the undefined pid and liveness. */
static ERL_NIF_TERM pids(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifPid self, other, undef;
    enif_self(env, &self);
    int got = enif_get_local_pid(env, argv[0], &other);
    enif_set_pid_undefined(&undef);
    ERL_NIF_TERM self_term = enif_make_pid(env, &self);
    return enif_make_list5(env, self_term, enif_make_int(env, got),
                           enif_make_int(env, got ? enif_is_process_alive(env, &other) : -1),
                           enif_make_int(env, enif_is_pid_undefined(&undef)),
                           enif_make_int(env, enif_is_pid_undefined(&self)));
}

/* make_refs() -> two fresh references (the Erlang side checks they differ). */
static ERL_NIF_TERM make_refs(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc; (void)argv;
    return enif_make_tuple2(env, enif_make_ref(env), enif_make_ref(env));
}

/* whereis_pid(Name) -> the registered pid or false. */
static ERL_NIF_TERM whereis(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifPid pid;
    if (!enif_whereis_pid(env, argv[0], &pid)) return atom(env, "false");
    return enif_make_pid(env, &pid);
}

static ErlNifFunc funcs[] = {
    {"ints", 0, ints, 0},           {"get_ints", 1, get_ints, 0},
    {"make_double", 1, make_double, 0}, {"get_double", 1, get_double, 0},
    {"atoms", 1, atoms, 0},         {"atom_info", 1, atom_info, 0},
    {"get_string", 2, get_string, 0}, {"make_strings", 0, make_strings, 0},
    {"tuples", 1, tuples, 0},       {"lists", 1, lists, 0},
    {"make_lists", 0, make_lists, 0}, {"classify", 1, classify, 0},
    {"compare", 2, compare, 0},     {"hash", 3, hash, 0},
    {"to_binary", 1, to_binary, 0}, {"from_binary", 2, from_binary, 0},
    {"pids", 1, pids, 0},           {"make_refs", 0, make_refs, 0},
    {"whereis_pid", 1, whereis, 0},
};

ERL_NIF_INIT(nif_terms, funcs, NULL, NULL, NULL, NULL)

// enif_* threads and synchronisation: POSIX threads, mutexes, condition variables, rwlocks and
// thread-specific data, each remembering the name the library gave it (enif_*_name).
#include <pthread.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "nif/nif_env.hpp"
#include "scheduler/scheduler.hpp"

struct ErlDrvMutex_ {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    std::string name;
};
struct ErlDrvCond_ {
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    std::string name;
};
struct ErlDrvRWLock_ {
    pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
    std::string name;
};
// A thread: pthread's id and the name it was created with.
struct ErlDrvTid_ {
    pthread_t t;
    std::string name;
};

namespace {
std::mutex tsd_keys_mutex;
int tsd_next_key = 0;
std::vector<int> tsd_free_keys;
thread_local std::vector<void*> t_tsd_values;

std::string name_of(const char* n) { return n ? n : ""; }
thread_local ErlDrvTid_* t_self = nullptr;  // set for threads enif_thread_create started

struct Start {
    ErlDrvTid_* tid;
    void* (*func)(void*);
    void* arg;
    beam::VM* vm;
};
void* run_thread(void* p) {
    Start s = *static_cast<Start*>(p);
    delete static_cast<Start*>(p);
    t_self = s.tid;
    beam::nif::set_current_vm(s.vm);
    return s.func(s.arg);
}
}  // namespace

extern "C" {

ErlNifMutex* enif_mutex_create(char* name) { return new ErlDrvMutex_{PTHREAD_MUTEX_INITIALIZER, name_of(name)}; }
void enif_mutex_destroy(ErlNifMutex* m) {
    pthread_mutex_destroy(&m->m);
    delete m;
}
int enif_mutex_trylock(ErlNifMutex* m) { return pthread_mutex_trylock(&m->m); }
void enif_mutex_lock(ErlNifMutex* m) { pthread_mutex_lock(&m->m); }
void enif_mutex_unlock(ErlNifMutex* m) { pthread_mutex_unlock(&m->m); }
char* enif_mutex_name(ErlNifMutex* m) { return m->name.data(); }

ErlNifCond* enif_cond_create(char* name) { return new ErlDrvCond_{PTHREAD_COND_INITIALIZER, name_of(name)}; }
void enif_cond_destroy(ErlNifCond* c) {
    pthread_cond_destroy(&c->c);
    delete c;
}
void enif_cond_signal(ErlNifCond* c) { pthread_cond_signal(&c->c); }
void enif_cond_broadcast(ErlNifCond* c) { pthread_cond_broadcast(&c->c); }
void enif_cond_wait(ErlNifCond* c, ErlNifMutex* m) { pthread_cond_wait(&c->c, &m->m); }
char* enif_cond_name(ErlNifCond* c) { return c->name.data(); }

ErlNifRWLock* enif_rwlock_create(char* name) { return new ErlDrvRWLock_{PTHREAD_RWLOCK_INITIALIZER, name_of(name)}; }
void enif_rwlock_destroy(ErlNifRWLock* l) {
    pthread_rwlock_destroy(&l->l);
    delete l;
}
int enif_rwlock_tryrlock(ErlNifRWLock* l) { return pthread_rwlock_tryrdlock(&l->l); }
void enif_rwlock_rlock(ErlNifRWLock* l) { pthread_rwlock_rdlock(&l->l); }
void enif_rwlock_runlock(ErlNifRWLock* l) { pthread_rwlock_unlock(&l->l); }
int enif_rwlock_tryrwlock(ErlNifRWLock* l) { return pthread_rwlock_trywrlock(&l->l); }
void enif_rwlock_rwlock(ErlNifRWLock* l) { pthread_rwlock_wrlock(&l->l); }
void enif_rwlock_rwunlock(ErlNifRWLock* l) { pthread_rwlock_unlock(&l->l); }
char* enif_rwlock_name(ErlNifRWLock* l) { return l->name.data(); }

// Thread-specific data of beamvm's own: POSIX allows only PTHREAD_KEYS_MAX (1024) keys per
// process, and erts gives NIFs as many as they ask for (nif_SUITE's tsd test makes 4711).
// A key indexes a per-thread vector of values; a destroyed key's number is reused.
int enif_tsd_key_create(char*, ErlNifTSDKey* key) {
    std::lock_guard lock(tsd_keys_mutex);
    if (!tsd_free_keys.empty()) {
        *key = tsd_free_keys.back();
        tsd_free_keys.pop_back();
    } else {
        *key = tsd_next_key++;
    }
    return 0;
}
void enif_tsd_key_destroy(ErlNifTSDKey key) {
    std::lock_guard lock(tsd_keys_mutex);
    tsd_free_keys.push_back(key);
}
void enif_tsd_set(ErlNifTSDKey key, void* data) {
    if (key < 0) return;
    if (size_t(key) >= t_tsd_values.size()) t_tsd_values.resize(size_t(key) + 1, nullptr);
    t_tsd_values[size_t(key)] = data;
}
void* enif_tsd_get(ErlNifTSDKey key) {
    return key >= 0 && size_t(key) < t_tsd_values.size() ? t_tsd_values[size_t(key)] : nullptr;
}

ErlNifThreadOpts* enif_thread_opts_create(char*) { return new ErlNifThreadOpts{-1}; }
void enif_thread_opts_destroy(ErlNifThreadOpts* opts) { delete opts; }

// opts->suggested_stack_size is in kilowords, as erts reads it; -1 (or no opts) is the default.
int enif_thread_create(char* name, ErlNifTid* tid, void* (*func)(void*), void* args, ErlNifThreadOpts* opts) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (opts && opts->suggested_stack_size > 0) {
        size_t bytes = size_t(opts->suggested_stack_size) * 1024 * sizeof(void*);
        if (bytes < PTHREAD_STACK_MIN) bytes = PTHREAD_STACK_MIN;
        pthread_attr_setstacksize(&attr, bytes);
    }
    auto* t = new ErlDrvTid_{pthread_t{}, name_of(name)};
    auto* start = new Start{t, func, args, beam::nif::current_vm()};
    int rc = pthread_create(&t->t, &attr, run_thread, start);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        delete start;
        delete t;
        return rc;
    }
    *tid = t;
    return 0;
}
ErlNifTid enif_thread_self(void) {
    if (t_self) return t_self;
    // A thread the library did not create (a scheduler): a handle made once per thread.
    static thread_local ErlDrvTid_ self{pthread_self(), ""};
    return &self;
}
int enif_equal_tids(ErlNifTid a, ErlNifTid b) { return pthread_equal(a->t, b->t); }
void enif_thread_exit(void* resp) { pthread_exit(resp); }
int enif_thread_join(ErlNifTid tid, void** respp) {
    int rc = pthread_join(tid->t, respp);
    if (rc == 0) delete tid;
    return rc;
}
char* enif_thread_name(ErlNifTid tid) { return tid->name.data(); }

}  // extern "C"

// The kind of thread calling: a normal or dirty scheduler (scheduler/dirty_schedulers.hpp),
// else undefined (a thread of the NIF library's own or of enif_thread_create).
extern "C" int enif_thread_type(void) {
    if (beam::Schedulers::current_index() >= 0) return ERL_NIF_THR_NORMAL_SCHEDULER;
    switch (beam::DirtySchedulers::current_kind()) {
    case beam::dirty_kind::CPU:
        return ERL_NIF_THR_DIRTY_CPU_SCHEDULER;
    case beam::dirty_kind::IO:
        return ERL_NIF_THR_DIRTY_IO_SCHEDULER;
    default:
        return ERL_NIF_THR_UNDEFINED;
    }
}

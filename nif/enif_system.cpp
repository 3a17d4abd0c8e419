// enif_* memory, dynamic libraries and the environment variables (formatted output:
// nif/enif_printf.cpp).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "nif/nif_env.hpp"

extern "C" {

void* enif_alloc(size_t size) { return std::malloc(size); }
void enif_free(void* ptr) { std::free(ptr); }
void* enif_realloc(void* ptr, size_t size) { return std::realloc(ptr, size); }

// `lib` without its extension, as load_nif/2's path: erts adds ".so". Errors go to err_handler.
void* enif_dlopen(const char* lib, void (*err_handler)(void*, const char*), void* err_arg) {
    dlerror();
    std::string path = std::string(lib) + ".so";
    void* h = dlopen(path.c_str(), RTLD_NOW);
    if (!h && err_handler) err_handler(err_arg, dlerror());
    return h;
}
void* enif_dlsym(void* handle, const char* symbol, void (*err_handler)(void*, const char*), void* err_arg) {
    dlerror();
    void* s = dlsym(handle, symbol);
    if (!s && err_handler) {
        const char* e = dlerror();
        err_handler(err_arg, e ? e : "symbol not found");
    }
    return s;
}

// 0 and the value (NUL-terminated) if it fits, 1 and the size needed if not, -1 if unset.
int enif_getenv(const char* key, char* value, size_t* value_size) {
    const char* v = std::getenv(key);
    if (!v) return -1;
    size_t n = std::strlen(v);
    if (n + 1 > *value_size) {
        *value_size = n + 1;
        return 1;
    }
    std::memcpy(value, v, n + 1);
    *value_size = n;
    return 0;
}

}  // extern "C"

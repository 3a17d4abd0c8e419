// enif_* resources (nif/resources.hpp).
#include <cstring>

#include "nif/nif_env.hpp"
#include "nif/nif_text.hpp"
#include "nif/resources.hpp"
#include "vm/binary.hpp"
#include "vm/binary_owner.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;
using beam::nif::ResourceObject;

extern "C" {

ErlNifResourceType* enif_open_resource_type(ErlNifEnv* env, const char* module_str, const char* name,
                                            ErlNifResourceDtor* dtor, ErlNifResourceFlags flags,
                                            ErlNifResourceFlags* tried) {
    if (module_str) return nullptr;  // erts: "must be NULL"
    ErlNifResourceTypeInit init{};
    init.dtor = dtor;
    return nif::open_resource_type(env, name, init, flags, tried);
}

ErlNifResourceType* enif_open_resource_type_x(ErlNifEnv* env, const char* name, const ErlNifResourceTypeInit* in,
                                              ErlNifResourceFlags flags, ErlNifResourceFlags* tried) {
    ErlNifResourceTypeInit init{};
    init.dtor = in->dtor;
    init.stop = in->stop;
    init.down = in->down;
    return nif::open_resource_type(env, name, init, flags, tried);
}

// `members` says how many of the callbacks the library's (possibly older) struct has.
ErlNifResourceType* enif_init_resource_type(ErlNifEnv* env, const char* name, const ErlNifResourceTypeInit* in,
                                            ErlNifResourceFlags flags, ErlNifResourceFlags* tried) {
    ErlNifResourceTypeInit init{};
    init.members = in->members;
    if (in->members >= 1) init.dtor = in->dtor;
    if (in->members >= 2) init.stop = in->stop;
    if (in->members >= 3) init.down = in->down;
    if (in->members >= 4) init.dyncall = in->dyncall;
    return nif::open_resource_type(env, name, init, flags, tried);
}

void* enif_alloc_resource(ErlNifResourceType* type, size_t size) {
    ResourceObject* obj = ResourceObject::create(type, size, nif::current_vm());
    obj->retain();  // the creator's count, dropped by enif_release_resource
    return obj->data();
}
void enif_release_resource(void* data) { ResourceObject::of(data)->release(); }
void enif_keep_resource(void* data) { ResourceObject::of(data)->retain(); }
size_t enif_sizeof_resource(void* data) { return ResourceObject::of(data)->size(); }

ERL_NIF_TERM enif_make_resource(ErlNifEnv* env, void* data) {
    return N(make_magic_ref(nif::heap(env), ResourceObject::of(data)));
}

int enif_get_resource(ErlNifEnv*, ERL_NIF_TERM term, ErlNifResourceType* type, void** objp) {
    Term t = T(term);
    ResourceObject* obj = magic_cast<ResourceObject>(t);
    // A binary enif_make_resource_binary made (a whole one, not a slice of it, as erts
    // accepts only the binary itself).
    if (!obj && is_boxed_sub(t, Sub::RefcBin))
        obj = dynamic_cast<ResourceObject*>(blob_owner(reinterpret_cast<const BinaryBlob*>(boxed_ptr(t)[2].raw)));
    if (!obj || obj->type() != type) return 0;
    *objp = obj->data();
    return 1;
}

// A binary of `size` bytes at `data` that keeps the resource `obj` alive and gives it back to
// enif_get_resource, as erts' does. erts' binary points into the resource; beamvm's holds a
// copy of the bytes made now (its binaries keep their bytes inline, vm/binary.hpp), so writes
// through `data` afterwards do not show in it. Always an off-heap binary, whatever its size,
// since only those can carry the resource.
ERL_NIF_TERM enif_make_resource_binary(ErlNifEnv* env, void* obj, const void* data, size_t size) {
    BinaryBlob* blob = BinaryBlob::create(size);
    blob->size = size;
    if (size) std::memcpy(blob->data, data, size);
    ResourceObject* res = ResourceObject::of(obj);
    res->retain();
    set_blob_owner(blob, res);
    return N(make_binary_from_blob(nif::heap(env), blob));
}

int enif_dynamic_resource_call(ErlNifEnv* env, ERL_NIF_TERM module, ERL_NIF_TERM name, ERL_NIF_TERM rsrc, void* call_data) {
    if (!is_atom(T(module)) || !is_atom(T(name))) return 1;
    ResourceObject* obj = magic_cast<ResourceObject>(T(rsrc));
    if (!obj) return 1;
    ErlNifResourceType* type = obj->type();
    std::optional<std::string> tname = nif::atom_latin1(T(name));
    if (type->module != T(module) || !tname || type->name != *tname || !type->init.dyncall) return 1;
    type->init.dyncall(env, obj->data(), call_data);
    return 0;
}

}  // extern "C"

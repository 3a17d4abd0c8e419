// Resource types and objects (nif/resources.hpp).
#include "nif/resources.hpp"

#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "nif/nif_env.hpp"
#include "nif/nif_module.hpp"
#include "nif/nif_text.hpp"
#include "nif/resource_monitors.hpp"
#include "vm/atom_table.hpp"

using namespace beam;

namespace beam::nif {

namespace {

// Every resource type ever opened, by module and name. Types are never freed: resources of a
// type may outlive every version of its module (erts frees them; beamvm keeps the few bytes).
struct TypeRegistry {
    std::mutex mutex;
    std::map<std::pair<Word, std::string>, ErlNifResourceType*> types;
};
TypeRegistry& registry() {
    static TypeRegistry* r = new TypeRegistry;
    return *r;
}

// What the running load/upgrade callback opened (load_nif holds its lock meanwhile).
struct Opening {
    ErlNifResourceType* type;
    bool created;
    ErlNifResourceTypeInit init;
};
NifModule* t_loading = nullptr;
std::vector<Opening> t_opened;

}  // namespace

ErlNifResourceType* open_resource_type(ErlNifEnv* env, const char* name, const ErlNifResourceTypeInit& init,
                                       ErlNifResourceFlags flags, ErlNifResourceFlags* tried) {
    if (!t_loading || env->module != t_loading) return nullptr;  // only from load or upgrade
    Term module = t_loading->functions.empty() ? atom(latin1_to_utf8(t_loading->entry.name, std::strlen(t_loading->entry.name)))
                                               : t_loading->functions.front()->module;
    TypeRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.types.find({module.raw, name});
    ErlNifResourceFlags op;
    ErlNifResourceType* type = nullptr;
    bool created = false;
    if (it != r.types.end() && (flags & ERL_NIF_RT_TAKEOVER)) {
        op = ERL_NIF_RT_TAKEOVER;
        type = it->second;
    } else if (it == r.types.end() && (flags & ERL_NIF_RT_CREATE)) {
        op = ERL_NIF_RT_CREATE;
        type = new ErlNifResourceType;
        type->module = module;
        type->name = name;
        created = true;
    } else {
        if (tried) *tried = ErlNifResourceFlags(0);
        return nullptr;
    }
    if (tried) *tried = op;
    if (flags & ~(ERL_NIF_RT_CREATE | ERL_NIF_RT_TAKEOVER)) return nullptr;
    t_opened.push_back({type, created, init});
    return type;
}

void begin_resource_types(NifModule* loading) {
    t_loading = loading;
    t_opened.clear();
}

void end_resource_types(bool commit) {
    TypeRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    for (Opening& o : t_opened) {
        if (!commit) {
            if (o.created) delete o.type;
            continue;
        }
        o.type->init = o.init;
        o.type->library = t_loading->library;
        if (o.created) r.types[{o.type->module.raw, o.type->name}] = o.type;
    }
    t_opened.clear();
    t_loading = nullptr;
}

ResourceObject* ResourceObject::create(ErlNifResourceType* type, size_t size, VM* vm) {
    void* mem = ::operator new(sizeof(ResourceObject) + size);
    auto* obj = new (mem) ResourceObject(type, size, vm);
    if (type->init.down) obj->monitors_ = std::make_shared<ResourceMonitors>(obj);
    return obj;
}

ResourceObject::~ResourceObject() {
    // erts removes a dying resource's monitors before its destructor, without `down` calls.
    if (monitors_) monitors_->resource_dying();
    if (type_->init.dtor) {
        CallbackEnv cb(vm_);
        type_->init.dtor(&cb.env, data_);
    }
}

}  // namespace beam::nif


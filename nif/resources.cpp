// Resource types and objects (nif/resources.hpp).
#include "nif/resources.hpp"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "nif/nif_env.hpp"
#include "nif/nif_module.hpp"
#include "nif/nif_text.hpp"
#include "nif/resource_monitors.hpp"
#include "vm/atom_table.hpp"
#include "vm/memory_stats.hpp"

using namespace beam;

namespace beam::nif {

namespace {

// Every resource type ever opened, by module and name. Types are never freed: resources of a
// type may outlive every version of its module (erts frees them; beamvm keeps the few bytes).
// One whose module and resources are all gone (abandoned) is replaced by a new CREATE.
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
std::shared_ptr<NifModule> t_loading_owner;
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
    // A type whose module is gone and whose resources are all freed is gone for erts too.
    if (it != r.types.end() && it->second->abandoned()) it = r.types.end();
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
        if (tried) *tried = flags;  // erts answers the flags it was given when it does nothing
        return nullptr;
    }
    if (tried) *tried = op;
    t_opened.push_back({type, created, init});
    return type;
}

void begin_resource_types(const std::shared_ptr<NifModule>& loading) {
    t_loading = loading.get();
    t_loading_owner = loading;
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
        o.type->set_owner(t_loading_owner);
        if (o.created) r.types[{o.type->module.raw, o.type->name}] = o.type;
    }
    t_opened.clear();
    t_loading = nullptr;
    t_loading_owner.reset();
}

}  // namespace beam::nif

std::shared_ptr<NifModule> enif_resource_type_t::current_owner() {
    std::lock_guard lock(owner_mu_);
    return owner_.lock();
}

void enif_resource_type_t::set_owner(const std::shared_ptr<NifModule>& m) {
    std::shared_ptr<NifModule> old;  // let go after the lock: it may run an unload callback
    std::lock_guard lock(owner_mu_);
    owner_ = m;
    if (live_ > 0) old = std::exchange(held_owner_, has_callbacks() ? m : nullptr);
}

void enif_resource_type_t::resource_made() {
    std::lock_guard lock(owner_mu_);
    if (live_++ == 0 && has_callbacks()) held_owner_ = owner_.lock();
}

void enif_resource_type_t::resource_gone() {
    std::shared_ptr<NifModule> last;
    std::lock_guard lock(owner_mu_);
    if (--live_ == 0) last = std::move(held_owner_);
}

bool enif_resource_type_t::abandoned() {
    std::lock_guard lock(owner_mu_);
    return live_ == 0 && owner_.expired();
}

namespace beam::nif {

namespace {
std::atomic<size_t> live_resource_bytes{0};  // vm/memory_stats.hpp
}  // namespace

size_t resource_bytes() { return live_resource_bytes.load(std::memory_order_relaxed); }

ResourceObject* ResourceObject::create(ErlNifResourceType* type, size_t size, VM* vm) {
    void* mem = ::operator new(sizeof(ResourceObject) + size);
    auto* obj = new (mem) ResourceObject(type, size, vm);
    type->resource_made();
    live_resource_bytes.fetch_add(obj->byte_size(), std::memory_order_relaxed);
    if (type->init.down) obj->monitors_ = std::make_shared<ResourceMonitors>(obj);
    return obj;
}

ResourceObject::~ResourceObject() {
    // erts removes a dying resource's monitors before its destructor, without `down` calls.
    if (monitors_) monitors_->resource_dying();
    if (type_->init.dtor) {
        std::shared_ptr<NifModule> owner = type_->current_owner();
        CallbackEnv cb(vm_);
        cb.env.module = owner.get();
        type_->init.dtor(&cb.env, data_);
    }
    type_->resource_gone();
    live_resource_bytes.fetch_sub(byte_size(), std::memory_order_relaxed);
}

}  // namespace beam::nif


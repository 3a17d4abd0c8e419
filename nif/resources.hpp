// NIF resources: objects a NIF library allocates with enif_alloc_resource and hands to Erlang as
// terms. A resource term is a magic reference (vm/term_magic_ref.hpp), as in erts since OTP 20:
// to Erlang an ordinary reference, to the library a pointer to its data. The object is freed,
// after its type's destructor, when the last term and the last enif_keep_resource count go.
#pragma once

#include <erl_nif.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>

#include "vm/term_magic_ref.hpp"

namespace beam {
class VM;
struct NifLibrary;
struct NifModule;
}  // namespace beam

// A resource type: named per module; a new version of the module's library takes it over.
struct enif_resource_type_t {
    beam::Term module;
    std::string name;
    ErlNifResourceTypeInit init{};  // dtor, stop, down, members, dyncall

    // The module version that owns it (erts' type->owner): the one whose load or upgrade
    // opened or took over the type; its priv_data is what the callbacks see, its library
    // (NifModule::library) holds their code. As in erts, a type with a callback (dtor, stop,
    // down or dyncall) and live resources keeps its owner, so a purged module's unload, and
    // its library's dlclose, wait for the last of them (and come right after its destructor,
    // as nif_SUITE's resource_takeover checks); a type without callbacks does not hold it; a
    // type taken over lets its old owner go.
    std::shared_ptr<beam::NifModule> current_owner();
    void set_owner(const std::shared_ptr<beam::NifModule>& m);
    void resource_made();
    void resource_gone();
    // No live resource and no owner left: a new load may CREATE the name again.
    bool abandoned();

private:
    bool has_callbacks() const { return init.dtor || init.stop || init.down || init.dyncall; }

    std::mutex owner_mu_;
    std::weak_ptr<beam::NifModule> owner_;
    std::shared_ptr<beam::NifModule> held_owner_;  // while live_ > 0, if it has callbacks
    size_t live_ = 0;
};

namespace beam::nif {

class ResourceMonitors;  // nif/resource_monitors.hpp

class ResourceObject final : public MagicKind<ResourceObject> {
public:
    static ResourceObject* create(ErlNifResourceType* type, size_t size, VM* vm);
    static ResourceObject* of(void* data) {
        return reinterpret_cast<ResourceObject*>(static_cast<char*>(data) - offsetof(ResourceObject, data_));
    }
    ~ResourceObject() override;
    static void operator delete(void* p) { ::operator delete(p); }  // allocated with its data

    void* data() { return data_; }
    size_t size() const { return size_; }
    ErlNifResourceType* type() const { return type_; }
    VM* vm() const { return vm_; }
    size_t byte_size() const override { return sizeof(*this) + size_; }
    // Its process monitors (enif_monitor_process): only if its type had a `down` callback
    // when it was allocated, as in erts; else null.
    ResourceMonitors* monitors() const { return monitors_.get(); }

private:
    ResourceObject(ErlNifResourceType* type, size_t size, VM* vm) : type_(type), size_(size), vm_(vm) {}
    ErlNifResourceType* type_;
    size_t size_;
    VM* vm_;
    std::shared_ptr<ResourceMonitors> monitors_;  // shared with the native monitors it holds
    alignas(16) unsigned char data_[];
};

// enif_open_resource_type and its variants: only from a load or upgrade callback; CREATE makes a
// new type, TAKEOVER takes over the existing one of an older version of the library.
ErlNifResourceType* open_resource_type(ErlNifEnv* env, const char* name, const ErlNifResourceTypeInit& init,
                                       ErlNifResourceFlags flags, ErlNifResourceFlags* tried);

// The resource types a load or upgrade callback opens are made visible only if it succeeds:
// load_nif brackets the callback with these (nif/load_nif.cpp).
void begin_resource_types(const std::shared_ptr<NifModule>& loading);
void end_resource_types(bool commit);

}  // namespace beam::nif

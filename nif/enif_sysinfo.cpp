// enif_system_info: driver_system_info's ErlDrvSysInfo (enif_thread_type is in
// nif/enif_threads.cpp, beside the dirty schedulers' threads).
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include <erl_driver.h>  // ERL_DRV_EXTENDED_MAJOR/MINOR_VERSION

#include "nif/nif_env.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/otp_version.hpp"
#include "vm/vm.hpp"

using namespace beam;

namespace {

// Bytes of ErlDrvSysInfo up to and including `field`: a library built against an older header
// passes a smaller struct, and only the fields it has are written (erts' ERL_DRV_SYS_INFO_SIZE).
#define SYS_INFO_SIZE_UPTO(field) (offsetof(ErlDrvSysInfo, field) + sizeof(ErlDrvSysInfo::field))

int scheduler_count() {
    VM* vm = nif::current_vm();
    return vm && vm->scheds ? vm->scheds->count() : 1;
}

}  // namespace

extern "C" {

void enif_system_info(ErlNifSysInfo* sip, size_t si_size) {
    // The first version of the struct (driver 1.0) ends at smp_support; erts exits the
    // emulator when handed less.
    if (!sip || si_size < SYS_INFO_SIZE_UPTO(smp_support)) {
        std::fprintf(stderr, "driver_system_info(%p, %ld) called with invalid arguments\n", static_cast<void*>(sip),
                     long(si_size));
        std::fflush(stderr);
        std::_Exit(1);
    }
    sip->driver_major_version = ERL_DRV_EXTENDED_MAJOR_VERSION;
    sip->driver_minor_version = ERL_DRV_EXTENDED_MINOR_VERSION;
    sip->erts_version = const_cast<char*>(ERTS_VERSION);
    sip->otp_release = const_cast<char*>(OTP_RELEASE);
    sip->thread_support = 1;
    sip->smp_support = 1;
    if (si_size >= SYS_INFO_SIZE_UPTO(scheduler_threads)) {  // driver 1.1
        // erl's +A, as system_info(thread_pool_size) reports it (tools/emu_flags.cpp); beamvm
        // itself has no async thread pool (no driver_async).
        VM* vm = nif::current_vm();
        sip->async_threads = vm ? int(vm->emu_options.thread_pool_size) : 1;
        sip->scheduler_threads = scheduler_count();
    }
    if (si_size >= SYS_INFO_SIZE_UPTO(nif_minor_version)) {  // driver 1.5, NIF 1.0
        sip->nif_major_version = ERL_NIF_MAJOR_VERSION;
        sip->nif_minor_version = ERL_NIF_MINOR_VERSION;
    }
    if (si_size >= SYS_INFO_SIZE_UPTO(dirty_scheduler_support))  // driver 3.1, NIF 2.7
        sip->dirty_scheduler_support = 1;
}

}  // extern "C"

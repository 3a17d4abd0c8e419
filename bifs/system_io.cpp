// Natives of OTP's io module.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"

namespace beam {

namespace {

// Which characters ~p treats as printable: latin1 unless erl is started with +pc unicode,
// which beamvm does not take yet.
Term printable_range_0(Process* p, const Term*) { return am::latin1; }

const BifSpec table[] = {
    {"io", "printable_range", 0, &printable_range_0},
};

}  // namespace

std::span<const BifSpec> io_bifs() { return table; }

}  // namespace beam

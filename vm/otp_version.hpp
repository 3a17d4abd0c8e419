// The OTP release beamvm answers as (erlang:system_info(otp_release) and (version), the
// versions erl_nif's and erl_driver's enif_system_info/driver_system_info report): OTP 25.2.3,
// whose erts is 13.1.5, the release whose .beam files and erl_nif.h beamvm runs with.
#pragma once

namespace beam {

inline constexpr char OTP_RELEASE[] = "25";
inline constexpr char ERTS_VERSION[] = "13.1.5";

}  // namespace beam

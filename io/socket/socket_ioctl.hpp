// The interface flags of socket:ioctl (gifflags) and supports(ioctl_flags), in OTP's order.
#pragma once

#include <cstddef>

namespace beam::esock {

struct IoctlFlag {
    const char* name;
    int flag;  // 0: not on this platform
};
extern const IoctlFlag ioctl_flag_table[];
extern const size_t ioctl_flag_count;

}  // namespace beam::esock

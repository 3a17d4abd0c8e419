// PLACEHOLDER, replaced by tcp_inet.
#include "io/inet/inet_desc.hpp"

namespace beam {

std::unique_ptr<PortDriver> make_tcp_inet(std::string_view) { return nullptr; }

}  // namespace beam

// PLACEHOLDER, replaced by the interfaces work: no interface request is answered yet.
#include "io/inet/inet_desc.hpp"

namespace beam::inet {

std::optional<std::string> interface_request(InetDesc&, unsigned, std::string_view) { return std::nullopt; }

}  // namespace beam::inet

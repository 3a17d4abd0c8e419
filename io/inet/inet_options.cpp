// PLACEHOLDER, replaced by the options work (setopts/getopts): until then every request is einval.
#include <cerrno>

#include "io/inet/inet_desc.hpp"

namespace beam::inet {

std::string set_options(InetDesc& d, std::string_view data) { return data.empty() ? reply_ok() : reply_error(EINVAL); }
std::string get_options(InetDesc& d, std::string_view data) { return reply_error(EINVAL); }

}  // namespace beam::inet

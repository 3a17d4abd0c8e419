#include "crashdump/dump_output.hpp"

#include <vector>

namespace beam::crashdump {

void DumpOutput::write(std::string_view s) {
    if (cut_) return;
    if (written_ + s.size() <= limit_) {
        std::fwrite(s.data(), 1, s.size(), f_);
        written_ += s.size();
        return;
    }
    std::fwrite(s.data(), 1, size_t(limit_ - written_), f_);
    static constexpr std::string_view stop = "\n=abort:CRASH DUMP SIZE LIMIT REACHED\n";
    std::fwrite(stop.data(), 1, stop.size(), f_);
    written_ = limit_;
    cut_ = true;
}

void DumpOutput::printf(const char* fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = std::vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (size_t(n) < sizeof small) {
        write(std::string_view(small, size_t(n)));
        return;
    }
    std::vector<char> big(size_t(n) + 1);
    va_start(ap, fmt);
    std::vsnprintf(big.data(), big.size(), fmt, ap);
    va_end(ap);
    write(std::string_view(big.data(), size_t(n)));
}

std::string base64(const uint8_t* d, size_t n) {
    static constexpr char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((n + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = uint32_t(d[i]) << 16 | uint32_t(d[i + 1]) << 8 | d[i + 2];
        for (int s = 18; s >= 0; s -= 6) out += digits[(v >> s) & 63];
    }
    if (n - i == 1) {
        uint32_t v = uint32_t(d[i]) << 16;
        out += digits[(v >> 18) & 63];
        out += digits[(v >> 12) & 63];
        out += "==";
    } else if (n - i == 2) {
        uint32_t v = uint32_t(d[i]) << 16 | uint32_t(d[i + 1]) << 8;
        out += digits[(v >> 18) & 63];
        out += digits[(v >> 12) & 63];
        out += digits[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

}  // namespace beam::crashdump

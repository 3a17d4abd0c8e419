// MD5 (RFC 1321), for module_info(md5). Incremental so chunks can be fed without copying.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace beam::loader {

class Md5 {
public:
    Md5();
    void update(std::span<const uint8_t> data);
    void finish(uint8_t out[16]);

private:
    void block(const uint8_t* p);
    uint32_t state_[4];
    uint64_t length_ = 0;  // bytes fed so far
    uint8_t buffer_[64];
    size_t buffered_ = 0;
};

}  // namespace beam::loader

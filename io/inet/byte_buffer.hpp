// Received bytes waiting to be framed: a growable buffer read into in place (no zero fill, as
// std::string::resize would do on every read), consumed from the front.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

namespace beam::inet {

class ByteBuffer {
public:
    size_t size() const { return end_ - begin_; }
    bool empty() const { return end_ == begin_; }
    const char* data() const { return buf_.get() + begin_; }
    void consume(size_t n) {
        begin_ += n;
        if (begin_ == end_) begin_ = end_ = 0;
    }
    void clear() { begin_ = end_ = 0; }
    // Room for `n` more bytes at the end; commit() what was written there.
    char* tail(size_t n) {
        if (cap_ - end_ < n) {
            size_t live = size();
            if (begin_ > 0 && cap_ - live >= n && begin_ >= live) {  // slide down, no allocation
                std::memmove(buf_.get(), buf_.get() + begin_, live);
            } else {
                size_t cap = std::max(cap_ * 2, live + n);
                auto grown = std::make_unique_for_overwrite<char[]>(cap);
                if (live) std::memcpy(grown.get(), buf_.get() + begin_, live);
                buf_ = std::move(grown);
                cap_ = cap;
            }
            begin_ = 0;
            end_ = live;
        }
        return buf_.get() + end_;
    }
    void commit(size_t n) { end_ += n; }
    // gen_tcp:unrecv: bytes put back in front of the unread ones.
    void prepend(std::string_view b) {
        std::string rest(data(), size());
        clear();
        std::memcpy(tail(b.size() + rest.size()), b.data(), b.size());
        std::memcpy(buf_.get() + b.size(), rest.data(), rest.size());
        commit(b.size() + rest.size());
    }

private:
    std::unique_ptr<char[]> buf_;
    size_t cap_ = 0, begin_ = 0, end_ = 0;
};

}  // namespace beam::inet

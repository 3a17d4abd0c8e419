// The tty_sl driver (io/tty/tty_sl.hpp). Every method runs with the port's lock held
// (scheduler/port_driver.hpp); input and output go through the VM's one poller.
#include "io/tty/tty_sl.hpp"

#include <fcntl.h>
#include <langinfo.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <clocale>
#include <cstring>
#include <string>

#include "bifs/bif_util.hpp"
#include "io/tty/break_menu.hpp"
#include "io/tty/line_model.hpp"
#include "io/tty/terminal_caps.hpp"
#include "io/tty/terminal_mode.hpp"
#include "vm/heap.hpp"

namespace beam {

namespace {

// user_drv's operations (lib/kernel/src/user_drv.erl).
enum Op : uint8_t { PUTC = 0, MOVE = 1, INSC = 2, DELC = 3, BEEP = 4, PUTC_SYNC = 5 };
constexpr unsigned CONTROL_MAGIC = 0x018b0900;
enum Control : unsigned { GET_WINSIZE = 100, GET_UNICODE_STATE = 101, SET_UNICODE_STATE = 102 };
// A PUTC_SYNC is answered at once unless more than this waits to be written (erts'
// TTY_BUFFSIZE); then when the terminal has taken enough.
constexpr size_t kSyncLimit = 1024;
constexpr size_t kReadSize = 1024;

// erts allows one tty_sl at a time: the terminal's modes have one owner.
std::atomic<bool> terminal_taken{false};

// The length of a UTF-8 sequence cut short at the end of `s` (0 if it ends whole or is not
// UTF-8 at all), to keep for the next read.
size_t cut_utf8_tail(std::string_view s) {
    for (size_t back = 1; back <= 3 && back <= s.size(); ++back) {
        uint8_t c = static_cast<uint8_t>(s[s.size() - back]);
        if ((c & 0xC0) == 0x80) continue;
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        return need > back ? back : 0;
    }
    return 0;
}

bool valid_utf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        uint8_t c = static_cast<uint8_t>(s[i]);
        size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0 || i + n > s.size() || (n == 2 && c < 0xC2)) return false;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<uint8_t>(s[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

class TtySl final : public PortDriver {
public:
    TtySl(int fd, bool own_fd, int fd_flags, tty::CursorCaps caps, unsigned cols, bool utf8)
        : fd_(fd), own_fd_(own_fd), fd_flags_(fd_flags), line_(std::move(caps), int(cols)) {
        line_.set_utf8(utf8);
    }

    void attach(const DriverPort& port) override {
        port_ = &port;
        handle_ = port.watch(fd_);
        arm();
    }

    std::optional<std::string> control(Term, unsigned op, std::string_view data) override {
        switch (op - CONTROL_MAGIC) {
        case GET_WINSIZE: {
            unsigned w, h;
            tty::window_size(fd_, w, h);
            uint32_t wh[2] = {w, h};  // native byte order, as user_drv reads it
            return std::string(reinterpret_cast<const char*>(wh), sizeof wh);
        }
        case GET_UNICODE_STATE: return std::string(1, char(line_.utf8() ? 1 : 0));
        case SET_UNICODE_STATE: {
            if (data.empty()) return std::string();
            std::string old(1, char(line_.utf8() ? 1 : 0));
            line_.set_utf8(data[0] != 0);
            return old;
        }
        default: return std::nullopt;
        }
    }

    void output(Term, std::string_view data) override {
        if (data.empty()) return;
        if (tty::window_changed()) {
            unsigned w, h;
            tty::window_size(fd_, w, h);
            line_.set_columns(int(w));
        }
        std::string_view arg = data.substr(1);
        auto int16 = [&] { return arg.size() < 2 ? 0 : int(int16_t((uint8_t(arg[0]) << 8) | uint8_t(arg[1]))); };
        switch (data[0]) {
        case PUTC:
        case PUTC_SYNC: line_.put_chars(arg, out_); break;
        case MOVE: line_.move_rel(int16(), out_); break;
        case INSC: line_.insert_chars(arg, out_); break;
        case DELC: line_.delete_chars(int16(), out_); break;
        case BEEP: out_ += '\a'; break;
        default: break;  // unknown operations are ignored, as erts does
        }
        write_some();
        if (data[0] == PUTC_SYNC) {
            if (out_.size() > kSyncLimit) sync_waiting_ = true;
            else answer_sync();
        }
    }

    void on_io(IoHandle, uint32_t events) override {
        if (events & EPOLLOUT) {
            write_some();
            if (sync_waiting_ && out_.size() < kSyncLimit) {
                sync_waiting_ = false;
                answer_sync();
            }
        }
        if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
            if (tty::break_in_progress()) {
                // The break menu reads the terminal now: stop watching until it is done.
                reading_ = false;
                arm();
                tty::park_tty_input(&port_->vm(), handle_, uint32_t(EPOLLIN) | (out_.empty() ? 0u : uint32_t(EPOLLOUT)));
                reading_ = true;
                return;
            }
            read_input();
        }
        if (!closed_) arm();
    }

    void stop() override {
        closed_ = true;
        tty::park_tty_input(nullptr, 0, 0);
        if (handle_) port_->forget(handle_);
        handle_ = 0;
        // What user_drv wrote last (the halt message) still goes out, blocking briefly.
        ::fcntl(fd_, F_SETFL, fd_flags_);
        for (size_t done = 0; done < out_.size();) {
            ssize_t n = ::write(fd_, out_.data() + done, out_.size() - done);
            if (n <= 0 && errno != EINTR) break;
            if (n > 0) done += size_t(n);
        }
        out_.clear();
        tty::leave_driver_mode(fd_);
        if (own_fd_) ::close(fd_);
        terminal_taken = false;
    }

    size_t queue_size() const override { return out_.size(); }

private:
    void arm() {
        if (!handle_) return;
        port_->arm(handle_, (reading_ ? uint32_t(EPOLLIN) : 0u) | (out_.empty() ? 0u : uint32_t(EPOLLOUT)));
    }

    void write_some() {
        while (!out_.empty()) {
            ssize_t n = ::write(fd_, out_.data(), out_.size());
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                if (errno != EAGAIN && errno != EWOULDBLOCK) out_.clear();  // the terminal is gone
                break;
            }
            out_.erase(0, size_t(n));
        }
        arm();
    }

    void answer_sync() {
        LiteralArea scratch;
        port_->send(port_->owner(), make_tuple(scratch, {port_->id(), am::ok}));
    }

    void read_input() {
        char buf[kReadSize];
        ssize_t n = ::read(fd_, buf, sizeof buf);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
        }
        LiteralArea scratch;
        if (n <= 0) {
            // Hung up (EIO, or end of file): user_drv passes eof to the shell. Nothing more
            // will come, so stop watching rather than wake on it forever.
            reading_ = false;
            port_->send(port_->owner(), make_tuple(scratch, {port_->id(), atom("eof")}));
            return;
        }
        std::string in = std::move(partial_);
        partial_.clear();
        in.append(buf, size_t(n));
        std::string text;
        if (line_.utf8()) {
            size_t keep = cut_utf8_tail(in);
            std::string_view whole(in.data(), in.size() - keep);
            if (valid_utf8(whole)) {
                partial_ = in.substr(in.size() - keep);
                text.assign(whole);
            } else {
                line_.set_utf8(false);  // as erts: the terminal is not UTF-8 after all
            }
        }
        if (!line_.utf8()) {
            for (char c : in) {
                uint8_t b = static_cast<uint8_t>(c);
                if (b < 0x80) {
                    text += c;
                } else {
                    text += char(0xC0 | (b >> 6));
                    text += char(0x80 | (b & 0x3F));
                }
            }
        }
        if (text.empty()) return;
        Term data = make_byte_list(scratch, reinterpret_cast<const uint8_t*>(text.data()), text.size());
        port_->send(port_->owner(), make_tuple(scratch, {port_->id(), make_tuple(scratch, {atom("data"), data})}));
    }

    int fd_;
    bool own_fd_;
    int fd_flags_;
    tty::LineModel line_;
    const DriverPort* port_ = nullptr;
    IoHandle handle_ = 0;
    std::string out_;      // bytes the terminal has not taken yet
    std::string partial_;  // the start of a UTF-8 character whose rest is still to come
    bool reading_ = true;
    bool sync_waiting_ = false;
    bool closed_ = false;
};

}  // namespace

std::unique_ptr<PortDriver> make_tty_sl(std::string_view command) {
    if (!::isatty(0) || !::isatty(1)) return nullptr;
    if (terminal_taken.exchange(true)) return nullptr;
    int canon = 0, echo = 0, sig = 0, fd = 0;
    bool own_fd = false;
    std::string args(command.substr(std::min(command.size(), command.find(' '))));
    for (size_t i = 0; i < args.size();) {
        while (i < args.size() && args[i] == ' ') ++i;
        size_t end = args.find(' ', i);
        std::string word = args.substr(i, end == std::string::npos ? std::string::npos : end - i);
        i = end == std::string::npos ? args.size() : end;
        if (word.empty()) continue;
        if (word[0] == '+' || word[0] == '-') {
            int v = word[0] == '+' ? 1 : -1;
            if (word.size() > 1 && word[1] == 'c') canon = v;
            if (word.size() > 1 && word[1] == 'e') echo = v;
            if (word.size() > 1 && word[1] == 's') sig = v;
        } else {  // a device to use instead of standard input
            if (own_fd) ::close(fd);
            fd = ::open(word.c_str(), O_RDWR | O_CLOEXEC);
            if (fd < 0) {
                terminal_taken = false;
                return nullptr;
            }
            own_fd = true;
        }
    }
    auto fail = [&]() -> std::unique_ptr<PortDriver> {
        if (own_fd) ::close(fd);
        terminal_taken = false;
        return nullptr;
    };
    auto caps = tty::load_cursor_caps(fd);
    if (!caps || !tty::enter_driver_mode(fd, canon, echo, sig)) return fail();
    // The character widths (wcwidth) and the UTF-8 question follow the user's locale.
    std::setlocale(LC_CTYPE, "");
    bool utf8 = std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    int flags = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    unsigned w, h;
    tty::window_size(fd, w, h);
    return std::make_unique<TtySl>(fd, own_fd, flags, std::move(*caps), w, utf8);
}

}  // namespace beam

// Result<T> for the loader and runtime services (not the interpreter, which uses NON_VALUE).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace beam {

struct Error {
    std::string message;
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error e) : v_(std::move(e)) {}
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const Error& error() const { return std::get<1>(v_); }
    Error take_error() { return std::move(std::get<1>(v_)); }

private:
    std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error e) : err_(std::move(e)), failed_(true) {}
    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return err_; }
    Error take_error() { return std::move(err_); }

private:
    Error err_;
    bool failed_ = false;
};

inline Error make_error(std::string msg) { return Error{std::move(msg)}; }

}  // namespace beam

// Propagates a failed Result out of the enclosing function, else yields its value.
#define BEAM_TRY(expr)                                           \
    ({                                                           \
        auto&& beam_try_r = (expr);                              \
        if (!beam_try_r.ok()) return beam_try_r.take_error();    \
        std::move(beam_try_r.value());                           \
    })
#define BEAM_TRY_VOID(expr)                                      \
    do {                                                         \
        auto&& beam_try_r = (expr);                              \
        if (!beam_try_r.ok()) return beam_try_r.take_error();    \
    } while (0)

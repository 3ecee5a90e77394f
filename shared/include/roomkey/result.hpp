// result.hpp: Result<T, E>, the value-or-error type every fallible step of
// shared/ returns. shared/ never throws, so the web build can drop exceptions.
#pragma once

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

namespace roomkey {

// Wraps an error so that Result<T, E> can be built from it even when T and E
// are the same type: `return Err{Code::bad};`.
template <class E>
struct Err {
    E error;
};
template <class E>
Err(E) -> Err<E>;

template <class T, class E>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
    template <class F, class = std::enable_if_t<std::is_constructible_v<E, F>>>
    Result(Err<F> err) : v_(std::in_place_index<1>, E(std::move(err.error))) {}  // NOLINT

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { assert(ok()); return *std::get_if<0>(&v_); }
    const T& value() const& { assert(ok()); return *std::get_if<0>(&v_); }
    T&& value() && { assert(ok()); return std::move(*std::get_if<0>(&v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const E& error() const { assert(!ok()); return *std::get_if<1>(&v_); }

    template <class U>
    T value_or(U&& fallback) const& { return ok() ? value() : static_cast<T>(std::forward<U>(fallback)); }

private:
    std::variant<T, E> v_;
};

// For steps that produce nothing but may fail.
struct Unit {
    friend bool operator==(Unit, Unit) { return true; }
};

}  // namespace roomkey

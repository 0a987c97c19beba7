// A minimal streaming JSON writer: one object per line, keys in call order.
// Shared by every tool so all JSON output is escaped and formatted the same way.
#pragma once

#include "nettopo/support/detail/text.hpp"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

class JsonWriter {
public:
    explicit JsonWriter(std::ostream& out) : out_(out) {}

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view k);
    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(std::uint64_t v);
    JsonWriter& value(std::int64_t v);
    JsonWriter& value(std::uint32_t v) { return value(static_cast<std::uint64_t>(v)); }
    JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
    JsonWriter& value(double v);
    JsonWriter& value(bool v);
    JsonWriter& null();
    template <class T> JsonWriter& value(const std::optional<T>& v) {
        return v ? value(*v) : null();
    }
    template <class T> JsonWriter& field(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }
    // Ends the current top-level value with a newline.
    void line();

private:
    void separate();
    std::ostream& out_;
    std::vector<bool> first_; // per open container: no element written yet
    bool after_key_ = false;
};

} // namespace nettopo

#include "common/json_writer.hpp"

#include <cmath>
#include <fmt/format.h>

namespace nettopo {

void JsonWriter::separate() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!first_.empty()) {
        if (!first_.back()) out_ << ',';
        first_.back() = false;
    }
}

JsonWriter& JsonWriter::begin_object() {
    separate();
    out_ << '{';
    first_.push_back(true);
    return *this;
}
JsonWriter& JsonWriter::end_object() {
    out_ << '}';
    first_.pop_back();
    return *this;
}
JsonWriter& JsonWriter::begin_array() {
    separate();
    out_ << '[';
    first_.push_back(true);
    return *this;
}
JsonWriter& JsonWriter::end_array() {
    out_ << ']';
    first_.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
    value(k);
    out_ << ':';
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    separate();
    out_ << '"';
    for (char c : s) {
        switch (c) {
        case '"':
            out_ << "\\\"";
            break;
        case '\\':
            out_ << "\\\\";
            break;
        case '\n':
            out_ << "\\n";
            break;
        case '\t':
            out_ << "\\t";
            break;
        case '\r':
            out_ << "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                out_ << fmt::format("\\u{:04x}", static_cast<unsigned>(c));
            else
                out_ << c;
        }
    }
    out_ << '"';
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t v) {
    separate();
    out_ << v;
    return *this;
}
JsonWriter& JsonWriter::value(std::int64_t v) {
    separate();
    out_ << v;
    return *this;
}
JsonWriter& JsonWriter::value(double v) {
    separate();
    // JSON has no NaN or infinity: what is not a number is null (and then
    // fails its schema, where a number is due, instead of every JSON reader).
    out_ << (std::isfinite(v) ? format_number(v) : std::string("null"));
    return *this;
}
JsonWriter& JsonWriter::value(bool v) {
    separate();
    out_ << (v ? "true" : "false");
    return *this;
}
JsonWriter& JsonWriter::null() {
    separate();
    out_ << "null";
    return *this;
}

void JsonWriter::line() {
    out_ << '\n';
}

} // namespace nettopo

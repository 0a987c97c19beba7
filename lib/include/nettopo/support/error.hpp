// One error mechanism for the whole library: exceptions derived from
// nettopo::Error. Tools map InputError to exit code 1 (bad data) and
// UsageError to exit code 2 (bad command line).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace nettopo {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Bad data: a malformed file, an inconsistent topology, an unknown name.
// Carries where the problem is when it comes from a file ("file:line: ...").
class InputError : public Error {
public:
    explicit InputError(const std::string& message) : Error(message) {}
    InputError(const std::string& file, std::size_t line, const std::string& message)
        : Error(locate(file, line) + message), file_(file), line_(line) {}

    const std::string& file() const { return file_; }
    std::size_t line() const { return line_; } // 0 when not tied to a line

private:
    static std::string locate(const std::string& file, std::size_t line) {
        if (file.empty()) return {};
        return line == 0 ? file + ": " : file + ":" + std::to_string(line) + ": ";
    }
    std::string file_;
    std::size_t line_ = 0;
};

// Bad request: an argument out of range, a PE index past the end, an unknown option.
class UsageError : public Error {
public:
    using Error::Error;
};

} // namespace nettopo

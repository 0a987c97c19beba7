#include "common/terminal_progress.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace nettopo {

TerminalProgress::TerminalProgress(std::string tool)
    : tool_(std::move(tool)), enabled_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

void TerminalProgress::update(std::string_view stage, std::uint64_t done, std::uint64_t total) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    // Quiet for short work; at most ten redraws a second for long work.
    if (now - start_ < std::chrono::seconds(1) ||
        (drawn_ && now - last_ < std::chrono::milliseconds(100)))
        return;
    last_ = now;
    const double percent =
        total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0;
    std::fputs(fmt::format("\r{}: {} {:5.1f}%\033[K", tool_, stage, percent).c_str(), stderr);
    std::fflush(stderr);
    drawn_ = true;
}

void TerminalProgress::finish() {
    if (!drawn_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
}

} // namespace nettopo

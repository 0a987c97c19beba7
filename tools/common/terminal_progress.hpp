// The tools' Progress: one self-erasing line on a terminal, drawn only once
// the work has lasted a second, silent when stderr is not a terminal (so
// piped runs and CI logs stay clean).
#pragma once

#include "nettopo/model/progress.hpp"

#include <chrono>
#include <string>

namespace nettopo {

class TerminalProgress final : public Progress {
public:
    // Silent unless standard error is a terminal.
    explicit TerminalProgress(std::string tool);
    ~TerminalProgress() override { finish(); }
    void update(std::string_view stage, std::uint64_t done, std::uint64_t total) override;
    void finish() override;

private:
    std::string tool_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_, last_;
};

} // namespace nettopo

// Progress of long work (reading or writing millions of machines). Readers
// and writers report to a Progress they are given; nothing is reported when
// none is. The library draws nothing itself: the tools' TerminalProgress
// (tools/common/terminal_progress.hpp) draws on a terminal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nettopo {

class Progress {
public:
    virtual ~Progress() = default;
    // `done` out of `total` units (bytes, links, ...) of the named stage.
    virtual void update(std::string_view stage, std::uint64_t done, std::uint64_t total) = 0;
    // The work is over: erase what was drawn.
    virtual void finish() = 0;
};

// Calls progress->update at most every `step` units, so hot loops pay one
// comparison per item.
class ProgressTicker {
public:
    ProgressTicker(Progress* progress, std::string_view stage, std::uint64_t total,
                   std::uint64_t step = 1 << 16)
        : progress_(progress), stage_(stage), total_(total), step_(step) {}
    void operator()(std::uint64_t done) {
        if (progress_ && done >= next_) {
            progress_->update(stage_, done, total_);
            next_ = done + step_;
        }
    }

private:
    Progress* progress_;
    std::string_view stage_;
    std::uint64_t total_, step_, next_ = 0;
};

} // namespace nettopo

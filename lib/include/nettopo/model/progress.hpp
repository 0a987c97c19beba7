/// \file
/// Progress of long work (reading or writing millions of machines). Readers
/// and writers report to a Progress they are given; nothing is reported when
/// none is. The library draws nothing itself: the tools' TerminalProgress
/// (tools/common/terminal_progress.hpp) draws on a terminal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nettopo {

/// What a long call reports its progress to; a program implements it.
/// \threads The library calls a Progress from the thread that made the call
/// it was given to; the implementation decides whether it may be shared.
/// \cost Called at most every few tens of thousands of units (ProgressTicker).
class Progress {
public:
    virtual ~Progress() = default; ///< a Progress is owned by the program
    /// `done` out of `total` units (bytes, links, ...) of the named stage.
    /// An exception it throws ends the library's call that reported, and
    /// comes out of that call.
    virtual void update(std::string_view stage, std::uint64_t done, std::uint64_t total) = 0;
    /// The work is over: erase what was drawn. Must not throw: the library
    /// may call it from a destructor, while an error unwinds (building a
    /// distance index does), where an exception ends the program.
    virtual void finish() = 0;
};

/// Calls progress->update at most every `step` units, so hot loops pay one
/// comparison per item.
/// \threads One thread at a time per ticker.
/// \cost O(1) per call, no allocation, plus the Progress's update when it
/// reports; making one throws nothing, a call throws what update throws.
class ProgressTicker {
public:
    /// Reports stage `stage` of `total` units to `progress` (nothing when null);
    /// `stage` must outlive the ticker.
    ProgressTicker(Progress* progress, std::string_view stage, std::uint64_t total,
                   std::uint64_t step = 1 << 16)
        : progress_(progress), stage_(stage), total_(total), step_(step) {}
    /// `done` units are done: reports when `step` more than at the last report.
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

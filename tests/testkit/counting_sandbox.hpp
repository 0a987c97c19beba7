// An HwlocSandbox that runs every parse where it is called, in the calling
// thread, and counts them: which entry points pass the caller's sandbox on,
// and how often hwloc runs.
#pragma once

#include "nettopo/hwloc/hwloc_sandbox.hpp"

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace nettopo::test {

class CountingSandbox final : public HwlocSandbox {
public:
    HwlocMachine run(const std::string& source,
                     const std::function<HwlocMachine()>& parse) const override {
        {
            const std::lock_guard lock(mutex_);
            sources_.push_back(source);
        }
        return parse();
    }
    // The sources of every run so far, in order.
    std::vector<std::string> sources() const {
        const std::lock_guard lock(mutex_);
        return sources_;
    }
    std::size_t runs() const { return sources().size(); }

private:
    mutable std::mutex mutex_;
    mutable std::vector<std::string> sources_;
};

} // namespace nettopo::test

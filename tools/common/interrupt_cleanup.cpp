#include "common/interrupt_cleanup.hpp"

#include "nettopo/support/detail/atomic_file.hpp"

#include <cerrno>
#include <csignal>

namespace nettopo {

namespace {

extern "C" void remove_temporaries_and_die(int signal_number) {
    const int saved_errno = errno;
    remove_pending_temporaries(); // async-signal-safe: unlink(2) of a fixed table
    // SA_RESETHAND has restored the default action; the signal, blocked while
    // this handler runs, is delivered again as it returns and kills the process.
    ::raise(signal_number);
    errno = saved_errno;
}

} // namespace

void remove_temporaries_on_termination() {
    for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
        struct sigaction old {};
        if (::sigaction(signal_number, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        struct sigaction action {};
        action.sa_handler = remove_temporaries_and_die;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        ::sigaction(signal_number, &action, nullptr);
    }
}

} // namespace nettopo

#include "hwloc/isolated.hpp"

#include "nettopo/support/error.hpp"
#include "nettopo/support/parse.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace nettopo::detail {

namespace {

// Line-based: the host name, then one line per object in pre-order
// ("o TYPE PARENT OS SIZE") and per memory object ("m TYPE PARENT OS SIZE").
std::string serialize(const HwlocMachine& m) {
    std::string s = m.hostname + '\n';
    for (const TreeObject& o : m.tree.objects())
        s += fmt::format("o {} {} {} {}\n", static_cast<int>(o.type), o.parent.value, o.os_index,
                         o.size_bytes);
    for (const MemoryObject& o : m.tree.memory())
        s += fmt::format("m {} {} {} {}\n", static_cast<int>(o.type), o.parent.value, o.os_index,
                         o.size_bytes);
    return s;
}

HwlocMachine deserialize(const std::string& text) {
    std::istringstream in(text);
    HwlocMachine m;
    std::getline(in, m.hostname);
    MachineTree::Builder b;
    std::string line;
    while (std::getline(in, line)) {
        char kind = 0;
        int type = 0;
        std::uint32_t parent = 0, os = 0;
        std::uint64_t size = 0;
        std::istringstream f(line);
        f >> kind >> type >> parent >> os >> size;
        if (!f || type < 0 || type >= static_cast<int>(object_type_count))
            throw Error("internal error: bad tree from the hwloc reader process");
        if (kind == 'o')
            b.add(static_cast<ObjectType>(type), ObjectId(parent), os, size);
        else
            b.add_memory(static_cast<ObjectType>(type), ObjectId(parent), os, size);
    }
    m.tree = std::move(b).finish();
    return m;
}

void write_all(int fd, const std::string& s) {
    for (std::size_t done = 0; done < s.size();) {
        const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

} // namespace

HwlocMachine load_isolated(const std::string& source, const std::function<HwlocMachine()>& load) {
    int fds[2];
    if (::pipe(fds) != 0) throw Error(fmt::format("pipe: {}", std::strerror(errno)));
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw Error(fmt::format("fork: {}", std::strerror(errno)));
    }
    if (pid == 0) {
        ::close(fds[0]);
        // A crash must kill the child, not run handlers inherited from the
        // parent (a test framework's, a sanitizer's) that would report or
        // recover in the wrong process.
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
        // hwloc prints multi-line banners on bad input; the parent reports
        // one clear line instead.
        if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, STDERR_FILENO);
        // First byte: 'O' then the tree, or 'E' then the error message.
        std::string reply;
        try {
            const std::string tree = serialize(load());
            reply.reserve(tree.size() + 1);
            reply.push_back('O');
            reply.append(tree);
        } catch (const std::exception& e) {
            reply.assign(1, 'E');
            reply.append(e.what());
        }
        write_all(fds[1], reply);
        ::close(fds[1]);
        ::_exit(0); // no destructors, no atexit handlers of the parent's state
    }
    ::close(fds[1]);
    std::string reply;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        reply.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (reply.empty() || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw InputError(source, 0,
                         fmt::format("hwloc crashed reading this ({}): the export is malformed "
                                     "or incomplete",
                                     WIFSIGNALED(status)
                                         ? fmt::format("signal {}", WTERMSIG(status))
                                         : fmt::format("exit status {}", WEXITSTATUS(status))));
    if (reply[0] == 'E') throw InputError(reply.substr(1));
    return deserialize(reply.substr(1));
}

} // namespace nettopo::detail

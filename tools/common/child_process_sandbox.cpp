#include "common/child_process_sandbox.hpp"

#include "common/identity_text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace nettopo {

namespace {

// The reply of the child, its first byte saying which:
//   'O' <hostname length>\n<hostname>, the allowed PUs ("a ALLOWED MACHINE
//       LIST\n", LIST in hwloc's list syntax, "-" if empty), the devices'
//       identities (identity_text.hpp), then the tree's
//       signature (MachineTree::signature: everything the tree holds, read
//       back by tree_from_signature);
//   'I' an InputError: FILE \0 LINE \0 WHAT;
//   'E' any other exception: WHAT.
std::string serialize(const HwlocMachine& m) {
    std::string s = fmt::format("O{}\n{}", m.hostname.size(), m.hostname);
    s += fmt::format("a {} {} {}\n", m.allowed.allowed, m.allowed.machine,
                     m.allowed.os_indexes.empty() ? "-" : m.allowed.os_indexes);
    s += identities_text(m.identities);
    s += m.tree.signature();
    return s;
}

[[noreturn]] void bad_reply() {
    throw Error("internal error: bad tree from the hwloc reader process");
}

HwlocMachine deserialize(std::string_view text) {
    std::istringstream in{std::string(text)};
    std::size_t length = 0;
    if (!(in >> length) || in.get() != '\n') bad_reply();
    HwlocMachine m;
    m.hostname.resize(length);
    if (!in.read(m.hostname.data(), static_cast<std::streamsize>(length))) bad_reply();
    std::string line;
    if (!std::getline(in, line)) bad_reply();
    {
        std::istringstream f(line);
        char kind = 0;
        f >> kind >> m.allowed.allowed >> m.allowed.machine >> m.allowed.os_indexes;
        if (!f || kind != 'a') bad_reply();
        if (m.allowed.os_indexes == "-") m.allowed.os_indexes.clear();
    }
    std::optional<std::vector<DeviceIdentity>> identities = read_identities_text(in, text.size());
    if (!identities) bad_reply();
    m.identities = std::move(*identities);
    if (!std::getline(in, line)) bad_reply();
    try {
        m.tree = tree_from_signature(line);
    } catch (const InputError&) {
        bad_reply();
    }
    return m;
}

std::string serialize(const InputError& e) {
    std::string s = "I" + e.file();
    s += '\0';
    s += std::to_string(e.line());
    s += '\0';
    s += e.what();
    return s;
}

// The InputError the child threw: same file, line and message.
[[noreturn]] void rethrow_input_error(std::string_view text) {
    const std::size_t end_file = text.find('\0');
    const std::size_t end_line =
        end_file == std::string_view::npos ? end_file : text.find('\0', end_file + 1);
    if (end_line == std::string_view::npos) bad_reply();
    const std::string file(text.substr(0, end_file));
    std::size_t line = 0;
    if (std::from_chars(text.data() + end_file + 1, text.data() + end_line, line).ptr !=
        text.data() + end_line)
        bad_reply();
    const std::string_view what = text.substr(end_line + 1);
    // what() is the location InputError writes, then the message.
    const std::string location = InputError(file, line, "").what();
    if (file.empty() || !what.starts_with(location)) throw InputError(std::string(what));
    throw InputError(file, line, std::string(what.substr(location.size())));
}

void write_all(int fd, const std::string& s) {
    for (std::size_t done = 0; done < s.size();) {
        const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

[[noreturn]] void run_child(int fd, const std::function<HwlocMachine()>& parse) {
    // A crash must kill the child, not run handlers inherited from the parent
    // (a test framework's, a sanitizer's) that would report or recover in the
    // wrong process.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, SIG_DFL);
    // hwloc prints multi-line banners on bad input; the parent reports one
    // clear line instead.
    if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, STDERR_FILENO);
    std::string reply;
    try {
        reply = serialize(parse());
    } catch (const InputError& e) {
        reply = serialize(e);
    } catch (const std::exception& e) {
        reply = std::string("E") + e.what();
    }
    write_all(fd, reply);
    ::close(fd);
    ::_exit(0); // no destructors, no atexit handlers of the parent's state
}

} // namespace

HwlocMachine ChildProcessSandbox::run(const std::string& source,
                                      const std::function<HwlocMachine()>& parse) const {
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
        run_child(fds[1], parse);
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
    const std::string_view body = std::string_view(reply).substr(1);
    switch (reply[0]) {
    case 'O':
        return deserialize(body);
    case 'I':
        rethrow_input_error(body);
    case 'E':
        throw InputError(std::string(body));
    default:
        bad_reply();
    }
}

} // namespace nettopo

#include "common/drawing.hpp"

#include "common/output.hpp"
#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace nettopo {

namespace {

// The `dot` executable on PATH, as execvp would find it.
std::optional<std::string> find_dot() {
    const char* env = std::getenv("PATH");
    const std::string_view path = env ? env : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t end = path.find(':', start);
        if (end == std::string_view::npos) end = path.size();
        const std::string_view dir = path.substr(start, end - start);
        const std::string candidate = fmt::format("{}/dot", dir.empty() ? "." : dir);
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return std::nullopt;
}

// Runs `dot -T<format> -o <output>` with `text` on its standard input (a
// socket, so that a `dot` that dies early gives EPIPE, not SIGPIPE).
void run_dot(const std::string& dot, const std::string& format, const std::string& output,
             const std::string& text, const std::string& target) {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw Error(fmt::format("cannot render {}: {}", target, std::strerror(errno)));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
    std::string arg0 = "dot", arg_t = fmt::format("-T{}", format), arg_o = "-o", arg_out = output;
    char* argv[] = {arg0.data(), arg_t.data(), arg_o.data(), arg_out.data(), nullptr};
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, dot.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (spawned != 0) {
        ::close(fds[0]);
        throw Error(fmt::format("cannot render {}: cannot run {}: {}", target, dot,
                                std::strerror(spawned)));
    }
    // If dot stops reading (it failed), its exit status says why.
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        const ssize_t n = ::send(fds[0], p, left, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            throw Error(fmt::format("cannot render {}: {}", target, std::strerror(errno)));
    if (WIFSIGNALED(status))
        throw Error(
            fmt::format("cannot render {}: dot was killed by signal {}", target, WTERMSIG(status)));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw Error(fmt::format("cannot render {}: dot failed (exit status {})", target,
                                WEXITSTATUS(status)));
    if (left > 0)
        throw Error(fmt::format("cannot render {}: dot did not read its whole input", target));
}

// Renders into a temporary file beside the target, then renames it: readers
// see the old drawing or the complete new one (a device or a FIFO is
// rendered to in place).
void render(const Cluster& cluster, const std::string& path, const std::string& format,
            const DotOptions& options) {
    const std::optional<std::string> dot = find_dot();
    if (!dot)
        throw Error(fmt::format(
            "cannot render {}: Graphviz's dot is not installed (apt-get install graphviz); "
            "write {} instead",
            path, std::filesystem::path(path).replace_extension(".dot").string()));
    std::ostringstream text;
    write_dot(cluster, text, options);

    replace_file_atomically(
        path, [&](const std::string& file) { run_dot(*dot, format, file, text.str(), path); });
}

} // namespace

void save_drawing(const Cluster& cluster, const std::string& path, const DotOptions& options) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (path == "-" || ext == ".dot" || ext == ".gv") {
        write_output(path, [&](std::ostream& out) { write_dot(cluster, out, options); });
        return;
    }
    if (ext == ".svg" || ext == ".png" || ext == ".pdf") {
        render(cluster, path, ext.substr(1), options);
        return;
    }
    throw UsageError(fmt::format("cannot draw to '{}': unknown file extension (expected .dot, "
                                 ".gv, .svg, .png or .pdf)",
                                 path));
}

} // namespace nettopo

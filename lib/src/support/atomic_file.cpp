#include "nettopo/support/atomic_file.hpp"

#include "nettopo/support/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nettopo {

void replace_file_atomically(const std::string& path,
                             const std::function<void(const std::string& file)>& fill) {
    // A device or a FIFO (-o /dev/null, a named pipe) is written to, not
    // replaced; a symbolic link keeps pointing where it did and its target
    // is replaced. Only regular files get the temporary-file-and-rename.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw Error(fmt::format("cannot write '{}': it is a directory", path));
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        fill(path);
        return;
    }
    std::string target = path;
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        std::error_code ec;
        target = std::filesystem::weakly_canonical(path, ec).string();
        if (ec) throw Error(fmt::format("cannot resolve '{}': {}", path, ec.message()));
    }
    std::string tmp = target + ".tmp.XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        throw Error(fmt::format("cannot create a temporary file beside '{}': {}", target,
                                std::strerror(errno)));
    ::close(fd);
    try {
        // `fill` may replace the file rather than write into it (`dot -o`):
        // it is reopened by name, and its permissions set, after it is done.
        fill(tmp);
        const int sync_fd = ::open(tmp.c_str(), O_RDONLY);
        if (sync_fd < 0 || ::fsync(sync_fd) != 0) {
            if (sync_fd >= 0) ::close(sync_fd);
            throw Error(fmt::format("cannot flush '{}' to disk: {}", tmp, std::strerror(errno)));
        }
        ::close(sync_fd);
        // mkstemp creates 0600 files. A file replaced keeps its permissions
        // (a user's chmod 600 must survive a rewrite); a new one gets the
        // umask's, as any ordinary data file.
        struct stat old {};
        if (::stat(target.c_str(), &old) == 0 && S_ISREG(old.st_mode)) {
            ::chmod(tmp.c_str(), old.st_mode & 07777);
        } else {
            const mode_t mask = ::umask(0);
            ::umask(mask);
            ::chmod(tmp.c_str(), 0666 & ~mask);
        }
        if (std::rename(tmp.c_str(), target.c_str()) != 0)
            throw Error(
                fmt::format("cannot rename '{}' to '{}': {}", tmp, target, std::strerror(errno)));
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
}

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    replace_file_atomically(path, [&](const std::string& file) {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        if (out) write(out);
        out.flush();
        if (!out) throw Error(fmt::format("cannot write '{}': {}", file, std::strerror(errno)));
    });
}

} // namespace nettopo

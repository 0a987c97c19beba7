#include "atomic_file.hpp"

#include "nettopo/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nettopo::detail {

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    if (path == "-") {
        write(std::cout);
        std::cout.flush();
        if (!std::cout) throw Error("cannot write to standard output");
        return;
    }
    std::string tmp = path + ".tmp.XXXXXX";
    const int fd = mkstemp(tmp.data());
    if (fd < 0)
        throw Error(fmt::format("cannot create a temporary file beside '{}': {}", path,
                                std::strerror(errno)));
    ::close(fd);
    try {
        {
            std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
            write(out);
            out.flush();
            if (!out) throw Error(fmt::format("cannot write '{}': {}", tmp, std::strerror(errno)));
        }
        const int sync_fd = ::open(tmp.c_str(), O_RDONLY);
        if (sync_fd < 0 || ::fsync(sync_fd) != 0) {
            if (sync_fd >= 0) ::close(sync_fd);
            throw Error(fmt::format("cannot flush '{}' to disk: {}", tmp, std::strerror(errno)));
        }
        ::close(sync_fd);
        // mkstemp creates 0600 files; an archive is ordinary data.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::chmod(tmp.c_str(), 0666 & ~mask);
        if (std::rename(tmp.c_str(), path.c_str()) != 0)
            throw Error(
                fmt::format("cannot rename '{}' to '{}': {}", tmp, path, std::strerror(errno)));
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
}

} // namespace nettopo::detail

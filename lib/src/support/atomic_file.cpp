#include "nettopo/support/detail/atomic_file.hpp"

#include "nettopo/support/error.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <stdlib.h>
#include <string_view>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace nettopo {

namespace {

// The named temporaries this process is writing, for remove_pending_temporaries()
// in a signal handler: the library's one piece of process-wide state (a
// handler has no other way to find them). A slot is free (0), being filled
// (1) or names a live temporary (2). The owner's process id keeps a forked
// child's handler (before its exec) from removing its parent's files.
struct PendingSlot {
    std::atomic<int> state{0};
    pid_t owner = 0;
    char path[PATH_MAX] = {};
};
static_assert(std::atomic<int>::is_always_lock_free, "read in a signal handler");
constexpr int slot_free = 0, slot_filling = 1, slot_live = 2;
std::array<PendingSlot, 8> pending_slots;

// Registers a named temporary for its lifetime. A ninth write at once, or a
// name too long for a slot, goes unregistered: a signal then leaves it for the
// next write's clean-up (remove_stale_temporaries).
class PendingName {
public:
    explicit PendingName(const std::string& path) {
        if (path.size() >= PATH_MAX) return;
        for (PendingSlot& slot : pending_slots) {
            int expected = slot_free;
            if (!slot.state.compare_exchange_strong(expected, slot_filling)) continue;
            slot.owner = ::getpid();
            std::memcpy(slot.path, path.c_str(), path.size() + 1);
            slot.state.store(slot_live);
            slot_ = &slot;
            return;
        }
    }
    ~PendingName() {
        if (slot_) slot_->state.store(slot_free);
    }
    PendingName(const PendingName&) = delete;
    PendingName& operator=(const PendingName&) = delete;

private:
    PendingSlot* slot_ = nullptr;
};

class Descriptor {
public:
    Descriptor() = default;
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() { reset(); }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    void reset(int fd = -1) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = fd;
    }
    int get() const { return fd_; }

private:
    int fd_ = -1;
};

void lock_exclusively(int fd) {
    // No lock (ENOLCK: NFS without its lock service) only means that the
    // clean-up cannot tell this file from a stale one, and leaves it alone.
    while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
}

constexpr std::string_view temporary_infix = ".tmp.";
constexpr std::size_t random_letters = 6; // as mkstemp's XXXXXX

bool is_name_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// "<base>.tmp.XXXXXX", the names of this file's temporaries.
bool is_temporary_of(std::string_view name, std::string_view base) {
    if (name.size() != base.size() + temporary_infix.size() + random_letters) return false;
    if (name.substr(0, base.size()) != base) return false;
    if (name.substr(base.size(), temporary_infix.size()) != temporary_infix) return false;
    for (const char c : name.substr(base.size() + temporary_infix.size()))
        if (!is_name_character(c)) return false;
    return true;
}

// Removes the temporaries of `base` in `dir` that no writer holds: a writer
// holds a lock on its temporary (flock) until it is renamed, and the kernel
// drops the lock of a process that dies, also on NFS (the client asks the
// server). Unlike a process id in the name, this tells a live writer on
// another host of a shared filesystem, needs no clock, and is not fooled by
// a reused process id. Files this user cannot open are left alone.
void remove_stale_temporaries(const std::string& dir, const std::string& base) {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* entry = ::readdir(d))
            if (is_temporary_of(entry->d_name, base)) names.emplace_back(entry->d_name);
        ::closedir(d);
    }
    for (const std::string& name : names) {
        const std::string path = dir + "/" + name;
        const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (fd.get() < 0) continue;
        struct stat by_fd {
        }, by_name{};
        // Unlocked now: its writer died, or is between mkstemp and its lock
        // (it then finds its file unlinked and makes another). The same
        // file still under that name (not renamed meanwhile) is removed.
        if (::fstat(fd.get(), &by_fd) == 0 && S_ISREG(by_fd.st_mode) &&
            ::flock(fd.get(), LOCK_EX | LOCK_NB) == 0 && ::lstat(path.c_str(), &by_name) == 0 &&
            by_name.st_ino == by_fd.st_ino && by_name.st_dev == by_fd.st_dev)
            ::unlink(path.c_str());
    }
}

std::string random_letters_text() {
    static constexpr char letters[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char bytes[random_letters] = {};
    if (::getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bytes)) {
        timespec now{};
        ::clock_gettime(CLOCK_MONOTONIC, &now);
        std::uint64_t seed = static_cast<std::uint64_t>(now.tv_nsec) ^
                             (static_cast<std::uint64_t>(::getpid()) << 32);
        for (unsigned char& b : bytes) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            b = static_cast<unsigned char>(seed >> 56);
        }
    }
    std::string text;
    for (const unsigned char b : bytes) text += letters[b % (sizeof letters - 1)];
    return text;
}

// The permissions of the new file: the replaced file's (a user's chmod 600
// must survive a rewrite), else the umask's, as any ordinary data file.
mode_t final_mode(const std::string& target) {
    struct stat old {};
    if (::stat(target.c_str(), &old) == 0 && S_ISREG(old.st_mode)) return old.st_mode & 07777;
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

// The write through an unnamed file (O_TMPFILE): a process killed before
// the rename leaves nothing. Returns false, having not called `fill`, where
// the filesystem has no unnamed files (EOPNOTSUPP, EISDIR, EINVAL) or /proc
// is not mounted, or the directory cannot be written (the named way then says
// why).
bool write_unnamed(const std::string& target, const std::string& dir,
                   const std::function<void(const std::string&)>& fill) {
    const Descriptor fd(::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
    if (fd.get() < 0) return false;
    // The file's name through /proc: `fill` (or a child process it runs) opens
    // it there. It must be this very file: a /proc of another PID namespace
    // (a container's) would name another process's descriptor.
    const std::string name = fmt::format("/proc/{}/fd/{}", ::getpid(), fd.get());
    struct stat by_fd {
    }, by_name{};
    if (::fstat(fd.get(), &by_fd) != 0 || ::stat(name.c_str(), &by_name) != 0 ||
        by_fd.st_ino != by_name.st_ino || by_fd.st_dev != by_name.st_dev)
        return false;
    lock_exclusively(fd.get()); // before it has a name, so no clean-up ever takes it
    fill(name);
    if (::fsync(fd.get()) != 0)
        throw Error(fmt::format("cannot flush '{}' to disk: {}", target, std::strerror(errno)));
    ::fchmod(fd.get(), final_mode(target));
    // linkat cannot replace a file: a fresh name, then the rename over the target.
    std::string tmp;
    for (int attempt = 0;; ++attempt) {
        tmp = fmt::format("{}{}{}", target, temporary_infix, random_letters_text());
        if (::linkat(AT_FDCWD, name.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0) break;
        if (errno != EEXIST || attempt == 100)
            throw Error(fmt::format("cannot create a temporary file beside '{}': {}", target,
                                    std::strerror(errno)));
    }
    const PendingName pending(tmp);
    if (std::rename(tmp.c_str(), target.c_str()) != 0) {
        const int error = errno;
        ::unlink(tmp.c_str());
        throw Error(
            fmt::format("cannot rename '{}' to '{}': {}", tmp, target, std::strerror(error)));
    }
    return true;
}

// The write through a named temporary, for filesystems without unnamed files.
void write_named(const std::string& target, const std::function<void(const std::string&)>& fill) {
    std::string tmp;
    Descriptor fd;
    std::optional<PendingName> pending;
    for (int attempt = 0;; ++attempt) {
        tmp = fmt::format("{}{}XXXXXX", target, temporary_infix);
        fd.reset(::mkostemp(tmp.data(), O_CLOEXEC));
        if (fd.get() < 0)
            throw Error(fmt::format("cannot create a temporary file beside '{}': {}", target,
                                    std::strerror(errno)));
        pending.reset();
        pending.emplace(tmp); // at once: a signal from now on removes it
        // Another write's clean-up may have taken it for stale before the
        // lock: then it is unlinked, and another is made.
        lock_exclusively(fd.get());
        struct stat st {};
        if (::fstat(fd.get(), &st) != 0 || st.st_nlink > 0 || attempt == 10) break;
    }
    try {
        // `fill` may replace the file rather than write into it: it is
        // reopened by name, and its permissions set, after it is done.
        fill(tmp);
        const Descriptor sync_fd(::open(tmp.c_str(), O_RDONLY | O_CLOEXEC));
        if (sync_fd.get() < 0 || ::fsync(sync_fd.get()) != 0)
            throw Error(fmt::format("cannot flush '{}' to disk: {}", target, std::strerror(errno)));
        ::chmod(tmp.c_str(), final_mode(target));
        if (std::rename(tmp.c_str(), target.c_str()) != 0)
            throw Error(
                fmt::format("cannot rename '{}' to '{}': {}", tmp, target, std::strerror(errno)));
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
}

} // namespace

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
    const std::filesystem::path where(target);
    const std::string dir = where.has_parent_path() ? where.parent_path().string() : ".";
    remove_stale_temporaries(dir, where.filename().string());
    if (!write_unnamed(target, dir, fill)) write_named(target, fill);
}

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    replace_file_atomically(path, [&](const std::string& file) {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        if (out) write(out);
        out.flush();
        if (!out) throw Error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    });
}

void remove_pending_temporaries() noexcept {
    const pid_t self = ::getpid();
    for (const PendingSlot& slot : pending_slots)
        if (slot.state.load() == slot_live && slot.owner == self) ::unlink(slot.path);
}

} // namespace nettopo

// Loaded with LD_PRELOAD by tools.interrupted_writes: open(2) of an unnamed
// file (O_TMPFILE) fails with EOPNOTSUPP, as on NFS or an old kernel, so that
// the tools write through a named temporary and the test checks that path
// too: its signal handler and the next write's clean-up.
#include <cerrno>
#include <cstdarg>
#include <dlfcn.h>
#include <sys/types.h>

namespace {

// __O_TMPFILE, the bit O_TMPFILE adds to O_DIRECTORY (asm-generic and x86);
// <fcntl.h> is not included: with _FORTIFY_SOURCE it defines open() inline.
constexpr int unnamed_file_flag = 020000000;
constexpr int create_flag = 0100; // O_CREAT

using OpenFunction = int (*)(const char*, int, ...);

int forward(const char* function, const char* path, int flags, mode_t mode) {
    if (flags & unnamed_file_flag) {
        errno = EOPNOTSUPP;
        return -1;
    }
    const auto real = reinterpret_cast<OpenFunction>(::dlsym(RTLD_NEXT, function));
    return real(path, flags, mode);
}

// The mode is passed only with O_CREAT or O_TMPFILE.
mode_t mode_argument(int flags, va_list arguments) {
    if (!(flags & (create_flag | unnamed_file_flag))) return 0;
    return static_cast<mode_t>(va_arg(arguments, unsigned));
}

} // namespace

extern "C" int open(const char* path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return forward("open", path, flags, mode);
}

extern "C" int open64(const char* path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return forward("open64", path, flags, mode);
}

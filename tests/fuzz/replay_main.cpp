// Replays inputs through a fuzz target without libFuzzer, in every build
// with tests: nettopo_fuzz_replay TARGET FILE_OR_DIR... (a directory: every
// file in it, in name order). Exit 0 when every input passes the target's
// oracles; a failed oracle aborts (fuzz_target.hpp).
//
// nettopo_fuzz_replay --pending TARGET FILE: the other way round, for a
// finding not fixed yet (pending/): exit 0 when the input still fails the
// target (run in a child process, which it aborts), 1 when it passes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#define X(name) void nettopo_fuzz_##name(const std::uint8_t* data, std::size_t size);
#include "targets.def"
#undef X

namespace {

using Target = void (*)(const std::uint8_t*, std::size_t);

Target find_target(std::string_view name) {
#define X(target)                                                                                  \
    if (name == #target) return nettopo_fuzz_##target;
#include "targets.def"
#undef X
    return nullptr;
}

void replay(Target target, const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    std::printf("%s (%zu bytes)\n", file.c_str(), bytes.size());
    std::fflush(stdout);
    target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

int replay_pending(Target target, const char* file) {
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        replay(target, file);
        std::_Exit(0);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) return 2;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        std::printf("%s passes its target now: the finding is fixed, move it to regressions/\n",
                    file);
        return 1;
    }
    std::printf("%s still fails its target (pending)\n", file);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string_view(argv[1]) == "--pending") {
        const Target target = find_target(argv[2]);
        return target ? replay_pending(target, argv[3]) : 2;
    }
    if (argc < 3) {
        std::fprintf(stderr, "usage: nettopo_fuzz_replay TARGET FILE_OR_DIR...\n");
        return 2;
    }
    const Target target = find_target(argv[1]);
    if (!target) {
        std::fprintf(stderr, "nettopo_fuzz_replay: no target '%s'\n", argv[1]);
        return 2;
    }
    std::size_t count = 0;
    for (int i = 2; i < argc; ++i) {
        const std::filesystem::path path(argv[i]);
        std::vector<std::filesystem::path> files;
        if (std::filesystem::is_directory(path)) {
            for (const auto& entry : std::filesystem::directory_iterator(path))
                if (entry.is_regular_file() && entry.path().filename() != "README.md" &&
                    entry.path().filename().string().front() != '.')
                    files.push_back(entry.path());
            std::sort(files.begin(), files.end());
        } else {
            files.push_back(path);
        }
        for (const auto& file : files) replay(target, file), ++count;
    }
    std::printf("%zu inputs replayed through %s\n", count, argv[1]);
    return 0;
}

#include "common/output.hpp"

#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/error.hpp"

#include <iostream>

namespace nettopo {

void write_output(const std::string& path, const std::function<void(std::ostream&)>& write) {
    if (path != "-") return write_atomically(path, write);
    write(std::cout);
    std::cout.flush();
    if (!std::cout) throw Error("cannot write to standard output");
}

} // namespace nettopo

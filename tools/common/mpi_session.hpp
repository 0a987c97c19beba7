// MPI_Init for the life of a scope, MPI_Finalize at its end: the --mpi
// modes of nettopo-discover and nettopo-balance. Included only by the files
// built with MPI.
#pragma once

#include <mpi.h>

namespace nettopo {

class MpiSession {
public:
    MpiSession() { MPI_Init(nullptr, nullptr); }
    ~MpiSession() { MPI_Finalize(); }
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
};

} // namespace nettopo

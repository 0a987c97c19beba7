// What a tool does when SIGTERM, SIGINT or SIGHUP ends it (timeout(1), ^C, a
// Slurm job reaching its time limit, a closed terminal): the named temporary
// files of the writes under way are removed, then the signal kills the tool
// as it would have without a handler (the shell sees 128 + the signal).
#pragma once

namespace nettopo {

// Installs the handlers; a signal the tool was started ignoring (nohup, a
// background job's SIGINT) stays ignored. Once per process, before any write.
void remove_temporaries_on_termination();

} // namespace nettopo

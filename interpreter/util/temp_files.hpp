// The temporary files of the output files being written, in a fixed table that a signal handler
// can read: when SIGINT, SIGTERM, SIGHUP or SIGPIPE stops the command, each is removed, or kept
// as NAME.partial when its owner asked for that (docs/cli.md, "Output files").
#pragma once

#include <string>

namespace keli::util {

// Registers `temp` (to be renamed to `partial` on a stopping signal, or removed when `partial`
// is empty); the row to pass to forget_temp_file, or -1 when the table is full or a name does
// not fit (the file is then written all the same, only not cleaned up on a signal).
int remember_temp_file(const std::string& temp, const std::string& partial);
// The file was renamed into place or removed: a signal no longer concerns it.
void forget_temp_file(int row);

// Installs the handler of SIGINT, SIGTERM, SIGHUP and SIGPIPE (each that was not ignored when
// the program started: `nohup` and a shell's background jobs keep theirs): it removes or renames
// the temporary files of the table, then the signal is raised again with its default action, so
// that the process ends as killed by it (a shell says status 128+N). Only the keli command calls
// it; a program embedding Keli (the Python module) keeps its own signal handling.
void clean_up_on_stop_signals();

}  // namespace keli::util

import DynctlCommands
import Glibc

// The whole of the executable: the command line run by the library (`DynctlCommands`), whose
// status becomes the process's.
exit(Dynctl.run(Array(CommandLine.arguments.dropFirst())))

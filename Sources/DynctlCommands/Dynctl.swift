/// dynctl as a library: one command line run in-process.
///
/// The executable's `main` is `exit(Dynctl.run(arguments))`. Nothing in this module ends the
/// process, so tests run command lines here, side by side, each with a console of its own.
public enum Dynctl {
  /// Runs one command line (the arguments after the program's name) as the process would, and
  /// returns the status it would exit with (`DynctlCommand`). Everything the run writes, and
  /// what it reads of its surroundings (standard input, `DYND_SOCKET`, `XDG_RUNTIME_DIR`, the
  /// help's width), is `console`'s: the process's own by default (the executable's `main`), a
  /// test's to capture its output.
  public static func run(_ arguments: [String], console: Console = .process) -> Int32 {
    Console.$current.withValue(console) {
      DynctlCommand.run(arguments, columns: console.columns)
    }
  }
}

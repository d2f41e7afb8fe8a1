import DaemonSocket
import Glibc

/// What one run of dynctl writes to and reads from its surroundings: its standard output and
/// error, its standard input (`run -`, `--samples -`), the environment variables it reads
/// (`DYND_SOCKET`, `XDG_RUNTIME_DIR`) and the width ArgumentParser wraps help to.
///
/// `Dynctl.run` binds the console it is given to `Console.current`, a task-local value, for the
/// run: everything dynctl prints or reads of the process goes through it, and nothing else. The
/// executable runs with `Console.process`, the process's own; a test gives each run a console
/// of its own (`init(environment:standardInput:columns:write:)`), so runs side by side in one
/// process each capture their own output, and none touches the process's descriptors 0, 1 and 2
/// or its environment.
public struct Console: Sendable {
  /// Where a piece of text goes.
  public enum Stream: Sendable {
    case standardOutput
    case standardError
  }

  /// What standard input is.
  public enum Input: Sendable {
    /// Read from this file descriptor, to its end (the process's: 0).
    case descriptor(Int32)
    /// This text.
    case text(String)
  }

  /// Takes each piece of text as dynctl writes it: whole lines, each written at once (a
  /// streaming command's lines come as they happen).
  public let write: @Sendable (Stream, String) -> Void
  /// The environment variables dynctl reads, by name: `DYND_SOCKET`, `XDG_RUNTIME_DIR`.
  public let environment: [String: String]
  /// What `-` reads, where a file is named.
  public let standardInput: Input
  /// The width ArgumentParser wraps help and usage to; nil: its own choice, `COLUMNS`, else the
  /// width of the terminal on standard output, else 80.
  public let columns: Int?

  /// A console of the caller's: by default an empty environment (the socket is then the
  /// default one, `SocketLocation`), an empty standard input, and 80 columns, what a process
  /// gets whose output goes to a file.
  public init(
    environment: [String: String] = [:], standardInput: Input = .text(""), columns: Int? = 80,
    write: @escaping @Sendable (Stream, String) -> Void
  ) {
    self.write = write
    self.environment = environment
    self.standardInput = standardInput
    self.columns = columns
  }

  /// The process's own: descriptors 1 and 2 written unbuffered (so `watch` streams), descriptor
  /// 0, the process's environment as it is now, and ArgumentParser's choice of width.
  public static var process: Console {
    Console(
      environment: SocketLocation.environment(), standardInput: .descriptor(0), columns: nil
    ) { stream, text in
      writeAll(stream == .standardOutput ? 1 : 2, text)
    }
  }

  /// The console of the run in progress (`Dynctl.run` binds it); the process's outside one.
  @TaskLocal public static var current = Console.process
}

/// Writes all of `text` to `fd`, retrying short writes.
private func writeAll(_ fd: Int32, _ text: String) {
  var text = text
  text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }
}

import ArgumentParser
import Primitives
import ReleaseInfo

/// dynctl: drive dynd from a shell — open sessions, send gestures, step, watch, run scripts.
///
/// The root command, run by `Dynctl.run` (never by ArgumentParser's `main`, which would exit).
struct DynctlCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dynctl",
    abstract: "Talk to dynd: open animator sessions, send gestures, step, watch the frames.",
    discussion: """
      The socket is --socket PATH, else $DYND_SOCKET, else $XDG_RUNTIME_DIR/dynd/dynd.sock, \
      else /tmp/dynd-$UID/dynd.sock. Points and vectors are written x,y (points, y down; \
      velocities in points per second). Sessions opened by dynctl are kept (keep: true): they \
      outlive the dynctl process until `dynctl close` or the daemon's idle timeout.

      Exit status: 0 success; 1 a check failed (handoff velocities differ, play or record saw \
      no outcome, watch --until's event did not come); 64 usage error, or no such command; \
      65 the daemon answered with an error, or a scene or trace is not valid; 66 a file could \
      not be read; 69 no daemon at the socket; 73 a file could not be written; 76 the daemon \
      broke the protocol, closed the connection or did not answer within --timeout; 77 refused before \
      sending anything: the socket directory dynctl chose ($XDG_RUNTIME_DIR/dynd or \
      /tmp/dynd-$UID) is a symbolic link, not yours or open to others, or the daemon runs as \
      another user (not you, not root).

      Environment: DYND_SOCKET the socket path when --socket is not given; XDG_RUNTIME_DIR the \
      per-user runtime directory the default socket is in (when it is an absolute path).

      Files: $XDG_RUNTIME_DIR/dynd/dynd.sock the default socket, where dynd.socket listens; \
      /tmp/dynd-$UID/dynd.sock the default socket when XDG_RUNTIME_DIR is not set.

      Shell completions: dynctl --generate-completion-script bash|zsh|fish.
      """,
    version: releaseVersion,
    subcommands: [
      HelloCommand.self, ListCommand.self, OpenCommand.self, CloseCommand.self, GetCommand.self,
      BehaviorsCommand.self, WatchCommand.self, StepCommand.self, GestureCommand.self,
      TapCommand.self,
      SwipeCommand.self, PlayCommand.self, HandoffCommand.self, RecordCommand.self,
      RenderCommand.self, RunCommand.self,
      SendCommand.self, ItemsInRectCommand.self, SetBoundsCommand.self, AddGroupCommand.self,
      RemoveGroupCommand.self, DescribeProtocolCommand.self, CheckCommand.self,
      DefineCommand.self,
    ])

  /// Runs one command line, `Dynctl.run`'s, with `Console.current` bound: connection options
  /// written before the subcommand (`dynctl --socket S -j list`) are moved behind it, where the
  /// subcommand reads them; a first argument that is no command, or an option the command does
  /// not take but has one like, is refused with a suggestion (64); the rest is ArgumentParser's
  /// `main`, less its `exit`: its messages (help, version, completion scripts, usage errors)
  /// are written as it prints them, wrapped to `columns`, and its status returned (0 for help
  /// and version, 64 for usage errors).
  static func run(_ arguments: [String], columns: Int?) -> Int32 {
    let arguments = movingLeadingOptions(arguments)
    if let typed = arguments.first,
      let complaint = unknownCommand(typed) ?? unknownOption(arguments)
    {
      complain(complaint)
      return ExitCode.validationFailure.rawValue
    }
    do {
      var command = try parseAsRoot(arguments)
      try command.run()
      return ExitCode.success.rawValue
    } catch {
      let status = exitCode(for: error)
      let text = fullMessage(for: error, columns: columns)
      if !text.isEmpty {
        if status == .success { printToStandardOutput(text) } else { printMessage(text) }
      }
      return status.rawValue
    }
  }

  /// The commands, as typed.
  static var commandNames: [String] {
    configuration.subcommands.compactMap { $0.configuration.commandName }
  }

  /// A sentence for a first argument that is neither an option nor a command (`dynctl stpe`),
  /// suggesting the closest command; nil when it is one (ArgumentParser takes it from there).
  static func unknownCommand(_ typed: String) -> String? {
    guard !typed.hasPrefix("-"), typed != "help", !commandNames.contains(typed) else {
      return nil
    }
    let suggestion = closestName(to: typed, among: commandNames).map { "did you mean '\($0)'? " }
    return "no command is named '\(typed)'; \(suggestion ?? "")the commands are "
      + commandNames.joined(separator: ", ") + " (dynctl --help)"
  }

  /// A sentence for an option the command does not take but has one like
  /// (`handoff … --velocity`: did you mean '--release-velocity'?), the first such; nil
  /// otherwise (ArgumentParser reports the rest). Only when ArgumentParser refuses an unknown
  /// option: a hidden one it takes (`handoff --tap`) is left to the command.
  static func unknownOption(_ arguments: [String]) -> String? {
    do {
      _ = try parseAsRoot(arguments)
      return nil
    } catch {
      guard message(for: error).hasPrefix("Unknown option") else { return nil }
    }
    guard let name = arguments.first,
      let command = configuration.subcommands.first(where: {
        $0.configuration.commandName == name
      })
    else { return nil }
    let known = longOptions(of: command)
    for argument in arguments.dropFirst() {
      if argument == "--" { break }
      guard argument.hasPrefix("--") else { continue }
      let option = String(argument.prefix { $0 != "=" })
      guard !known.contains(option) else { continue }
      let words = "-" + option.dropFirst(2)
      guard
        let close = known.first(where: { $0.hasSuffix(words) })
          ?? closestName(to: option, among: known)
      else { continue }
      return "\(name): unknown option '\(option)'; did you mean '\(close)'? (dynctl \(name) --help)"
    }
    return nil
  }

  /// The long options `command` takes, as its help lists them.
  static func longOptions(of command: ParsableCommand.Type) -> [String] {
    helpMessage(for: command, columns: 200).split(separator: "\n").compactMap { line in
      let text = line.drop { $0 == " " }
      let option =
        text.hasPrefix("-") && !text.hasPrefix("--") ? text.drop { $0 != " " }.dropFirst() : text
      guard option.hasPrefix("--") else { return nil }
      return String(option.prefix { $0.isLetter || $0.isNumber || $0 == "-" })
    }
  }

  static func movingLeadingOptions(_ arguments: [String]) -> [String] {
    var leading: [String] = []
    var rest = arguments[...]
    while let first = rest.first {
      if ["-j", "--json"].contains(first) || first.hasPrefix("--socket=")
        || first.hasPrefix("--timeout=")
      {
        leading.append(first)
        rest = rest.dropFirst()
      } else if ["--socket", "--timeout"].contains(first), rest.count >= 2 {
        leading += rest.prefix(2)
        rest = rest.dropFirst(2)
      } else {
        break
      }
    }
    guard !leading.isEmpty, let command = rest.first, !command.hasPrefix("-") else {
      return arguments
    }
    return [command] + leading + rest.dropFirst()
  }
}

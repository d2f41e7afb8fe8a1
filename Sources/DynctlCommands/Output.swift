import Wire

/// Writes what the daemon said: its lines verbatim with `--json`, else a readable account.
///
/// Human output puts one event per line, prefixed by its session; replies print their fields
/// (items as one line each, sessions as a table); an empty `ok` prints nothing. Error replies
/// go to standard error in both modes (and, with `--json`, their line to standard output too).
/// Nothing the daemon wrote reaches the terminal with a control or bidirectional formatting
/// character in it (`TerminalText`): readable output shows them as `\uXXXX`, and `--json` writes
/// the few a JSON string may hold raw as the `\uXXXX` escapes of the same value.
struct Output {
  let json: Bool
  /// Frames (and the debug geometry that comes with them) are printed (`watch`,
  /// `step --frames`) or only counted.
  var showFrames = true
  /// Nothing the daemon says is printed (`record` writes it to a file instead).
  var silent = false
  /// Which request the next replies answer (`run`: `line 5 (step)`): their first line starts
  /// with it, and an empty `ok` prints `LABEL: ok` instead of nothing.
  var replyLabel: String?

  func event(_ message: Message) {
    if silent { return }
    if json {
      emit(TerminalText.jsonLine(message.text))
    } else if showFrames
      || (message.eventKind != .frame && message.eventKind != .debug)
    {
      emit(TerminalText.safe(HumanFormat.event(message)))
    }
  }

  func reply(_ message: Message) {
    if silent { return }
    if json {
      emit(TerminalText.jsonLine(message.text))
    } else if let body = message.content.replyBody {
      var lines = HumanFormat.reply(body)
      if let replyLabel {
        if lines.isEmpty { lines = ["ok"] }
        lines[0] = "\(replyLabel): \(lines[0])"
      }
      for line in lines { emit(TerminalText.safe(line)) }
    }
  }

  /// A line of dynctl's own (progress, summaries, which may quote the daemon); not written with
  /// `--json`.
  func note(_ text: String) {
    if !json { emit(TerminalText.safe(text)) }
  }

  /// Writes `line` and a newline to standard output at once (unbuffered, so `watch` streams).
  private func emit(_ line: String) {
    Console.current.write(.standardOutput, line + "\n")
  }
}

/// Writes `dynctl: text` to standard error (`text` made safe: it may quote the daemon).
func complain(_ text: String) {
  Console.current.write(.standardError, "dynctl: \(TerminalText.safe(text))\n")
}

/// Writes `text` and a newline to standard error (a verdict beside `--json` output).
func printToStandardError(_ text: String) {
  Console.current.write(.standardError, TerminalText.safe(text) + "\n")
}

/// Writes ArgumentParser's text for a help or version request, and a newline, to standard
/// output, as its `exit(withError:)` prints it.
func printToStandardOutput(_ text: String) {
  Console.current.write(.standardOutput, text + "\n")
}

/// Writes ArgumentParser's text for a usage error, and a newline, to standard error, as its
/// `exit(withError:)` prints it (as it is: usage errors are not the daemon's words).
func printMessage(_ text: String) {
  Console.current.write(.standardError, text + "\n")
}

import Wire

/// Every line a connection sent and received, in order: what a trace is made of.
final class TraceLines {
  private(set) var lines: [String] = []
  /// The `frame` events among them.
  private(set) var frames = 0

  /// A request, wrapped as `{"sent": …}` so that it cannot be mistaken for a daemon line.
  func sent(_ line: String) { lines.append("{\"sent\":\(line)}") }
  /// A reply or an event, verbatim.
  func received(_ message: Message) {
    lines.append(message.text)
    if message.eventKind == .frame { frames += 1 }
  }
}

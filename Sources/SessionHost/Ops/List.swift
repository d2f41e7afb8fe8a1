import Wire

extension SessionHost {
  /// `list`: every session in the order they were opened, from what each last published (so
  /// it never waits for a job).
  func list() -> ReplyBody {
    .list(sessionsInOrder.map(\.summary))
  }
}

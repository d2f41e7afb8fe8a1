import Primitives

/// The sentences that explain a `handoff` event: what each constraint did to the finger's
/// velocity, and why an estimated velocity is zero or limited. Written once, here: `dynctl
/// handoff` fills them in Swift (`fill`), the inspector and the replay page in JavaScript
/// (`source`, which embeds the same templates). A template's `{name}` is replaced by a value.
public enum HandoffWords {
  /// A rail: `{axis}`, `{before}` and `{after}` are vectors written as `(x, y)`.
  public static let rail =
    "the item runs on a rail along {axis}: {before} projected onto it is {after} pt/s"
  public static let anchored = "the item is anchored: it does not move"
  /// The speed limit: `{max}` a number, `{before}` and `{after}` vectors.
  public static let speedLimit =
    "the engine moves nothing faster than {max} pt/s: {before} is scaled down to {after} pt/s"

  /// Why the estimator's velocity is what it is, by the `handoff` event's `estimate.reason`
  /// (`ReleaseEstimate.Reason`; `estimated`, the ordinary case, needs no sentence). `{still_ms}`:
  /// the pointer's stillness before lift-off, in milliseconds. The estimator's constants they
  /// quote are its own (`VelocityEstimator`).
  public static let reasons: [(reason: String, sentence: String)] = [
    (
      "pointer_stopped",
      "0 pt/s: the pointer was still for {still_ms} ms before lift-off "
        + "(Android's and Flutter's \(number(VelocityEstimator.stoppedAfter * 1000)) ms rule)"
    ),
    (
      "too_few_samples",
      "0 pt/s: the estimator had fewer than two samples (a velocity needs two)"
    ),
    (
      "sparse_samples",
      "0 pt/s: the samples came {gap_ms} ms apart, more than the estimator's "
        + "\(number(VelocityEstimator.stoppedAfter * 1000)) ms, so each began the estimate afresh "
        + "(send one at least every \(number(VelocityEstimator.stoppedAfter * 1000)) ms: a 60 Hz "
        + "display sends one every 16.7 ms)"
    ),
    (
      "stale_samples",
      "0 pt/s: at lift-off the samples were older than the estimator's "
        + "\(number(VelocityEstimator.horizon * 1000)) ms horizon"
    ),
    (
      "degenerate_fit",
      "0 pt/s: the samples' times were too close together to fit a velocity through them"
    ),
    (
      "limited",
      "limited: the estimate was faster than \(number(VelocityEstimator.maxSpeed)) pt/s and was "
        + "scaled down to that speed in its direction"
    ),
    (
      "reversed",
      "reversed: the velocity points back against the pan, because its last samples reversed "
        + "the motion and the fit follows them"
    ),
  ]

  /// `template` with each `{name}` replaced by `values[name]`.
  public static func fill(_ template: String, _ values: [String: String]) -> String {
    var text = template
    for (name, value) in values {
      text = text.split(separator: "{\(name)}", omittingEmptySubsequences: false)
        .joined(separator: value)
    }
    return text
  }

  /// The reason's sentence, filled, or nil for `estimated` and unknown reasons.
  public static func reasonSentence(
    _ reason: String, stillMilliseconds: Double?, gapMilliseconds: Double? = nil
  ) -> String? {
    guard let template = reasons.first(where: { $0.reason == reason })?.sentence else {
      return nil
    }
    return fill(
      template,
      [
        "still_ms": stillMilliseconds.map(Self.number) ?? "?",
        "gap_ms": gapMilliseconds.map(Self.number) ?? "?",
      ])
  }

  /// A number as the sentences write it: at most 3 decimals, no trailing zeros.
  static func number(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
    return String(rounded)
  }

  /// JavaScript: `dyndHandoffWords(handoff)` → `{constraints: [sentence…], reason: sentence or
  /// null, after: [vx, vy]}` for a `handoff` event (`after`: the finger's velocity after the
  /// constraints, what the item should move with). Plain ES2017, no dependencies.
  public static var source: String {
    let templates = [
      "rail": rail, "anchored": anchored, "speed_limit": speedLimit,
    ]
    let reasonTable = Dictionary(uniqueKeysWithValues: reasons.map { ($0.reason, $0.sentence) })
    return """
      const DYND_HANDOFF_TEMPLATES = \(jsonObject(templates));
      const DYND_HANDOFF_REASONS = \(jsonObject(reasonTable));
      """ + "\n" + script
  }

  /// `handoff-words.js`, embedded at build time.
  private static let script = embeddedScript(PackageResources.handoff_words_js)

  /// A JSON object of string members, keys sorted (the templates hold no control characters).
  private static func jsonObject(_ members: [String: String]) -> String {
    let escape = { (text: String) in
      "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
    return "{"
      + members.keys.sorted().map { escape($0) + ": " + escape(members[$0]!) }
      .joined(separator: ", ") + "}"
  }
}

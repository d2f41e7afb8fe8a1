import Primitives

/// What a `get` reply tells of a session besides its state (extension): the animator's
/// reference bounds, a transition session's parameters, every one of them (the defaults
/// filled in), in the transition's declaration order, and a scene's item groups.
public struct SessionDetails: Equatable, Sendable {
  /// The reference bounds; nil for an animator without them (written only when present).
  public var bounds: Rect?
  /// A transition session's parameters; nil for a scene session.
  public var params: TransitionParams?
  /// A scene's item groups, in the order they were made (written as `groups` only when there
  /// are any: `[{"id", "items"}, …]`).
  public var groups: [GroupSpec]

  public init(bounds: Rect? = nil, params: TransitionParams? = nil, groups: [GroupSpec] = []) {
    self.bounds = bounds
    self.params = params
    self.groups = groups
  }

  /// The members the `get` reply carries for these details.
  var fields: [ReplyField] {
    var fields: [ReplyField] = []
    if let b = bounds {
      fields.append(
        ReplyField(
          "bounds",
          .array(
            [b.minX, b.minY, b.size.width, b.size.height].map {
              .number($0, decimals: WireProtocol.linearDecimals)
            })))
    }
    if let params {
      fields.append(
        ReplyField(
          "params",
          .object(params.entries.map { ReplyField($0.name, $0.value.replyValue) })))
    }
    if !groups.isEmpty {
      fields.append(
        ReplyField(
          "groups",
          .array(groups.map { .object([.string("id", $0.id), .strings("items", $0.items)]) })))
    }
    return fields
  }
}

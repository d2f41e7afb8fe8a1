/// `set_behavior`: new values for settable fields of one behavior.
public struct SetBehaviorRequest: Equatable, Sendable {
  public var session: String
  /// The behavior's id.
  public var behavior: String
  /// The fields to set, read by `fields.update(for:)` once the behavior's type is known.
  public var fields: BehaviorFields

  public init(session: String, behavior: String, fields: BehaviorFields) {
    self.session = session
    self.behavior = behavior
    self.fields = fields
  }

  /// A request that sets the fields of `update`.
  public init(session: String, behavior: String, update: BehaviorUpdate) {
    self.init(session: session, behavior: behavior, fields: BehaviorFields(update))
  }
}

/// The reply is empty.
extension SetBehaviorRequest: SessionOpRequest {
  public static let name = "set_behavior"
  public static var fields: [StaticString] { ["session", "behavior"] + BehaviorUpdate.fields }
  public static let target = OpTarget.scene
  public static let changesStepCost = true

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    let session = try fields.requiredName("session")
    let behavior = try fields.requiredName("behavior")
    let settable = try BehaviorFields(
      fields, excluding: ["op", "id", "session", "behavior"], what: "op 'set_behavior'")
    return Self(session: session, behavior: behavior, fields: settable)
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("behavior", behavior)
    encoder.members(of: fields)
  }
}

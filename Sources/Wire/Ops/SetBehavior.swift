/// `set_behavior`: new values for settable fields of one behavior.
public struct SetBehaviorRequest: Equatable, Sendable {
  public var session: String
  /// The behavior's id.
  public var behavior: String
  /// The fields to set; call `update.check(for:)` once the behavior's type is known.
  public var update: BehaviorUpdate

  public init(session: String, behavior: String, update: BehaviorUpdate) {
    self.session = session
    self.behavior = behavior
    self.update = update
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
    let update = try BehaviorUpdate(fields)
    guard !update.fieldNames.isEmpty else {
      throw ProtocolError(
        .missingField, "op 'set_behavior' needs at least one field to set besides 'behavior'")
    }
    return Self(session: session, behavior: behavior, update: update)
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("behavior", behavior)
    encoder.update(update)
  }
}

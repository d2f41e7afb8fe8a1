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
  /// The spring and the decay a transition's parameters give, as they are in force (written as
  /// `motion` only when there is one).
  public var motion: SessionMotion?

  public init(
    bounds: Rect? = nil, params: TransitionParams? = nil, groups: [GroupSpec] = [],
    motion: SessionMotion? = nil
  ) {
    self.bounds = bounds
    self.params = params
    self.groups = groups
    self.motion = motion
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
    if let motion { fields.append(ReplyField("motion", .object(motion.fields))) }
    if !groups.isEmpty {
      fields.append(
        ReplyField(
          "groups",
          .array(groups.map { .object([.string("id", $0.id), .strings("items", $0.items)]) })))
    }
    return fields
  }
}

/// A transition's spring and decay in force (extension of `get`): of the parameters that can
/// give one (a sheet's nine spring fields, a fling's three decay fields), the one set the
/// client gave (or the default one), and what it makes.
///
/// `"motion": {"spring": {"set": ["stiffness", "damping_ratio", "mass"], "mass", "stiffness",
/// "damping", "damping_ratio", "response", "duration", "bounce", "tension", "friction"},
/// "decay": {"friction": 2}}`, each present when the transition has one.
public struct SessionMotion: Equatable, Sendable {
  public var spring: (set: SpringParameterSet, parameters: SpringParameters)?
  public var decay: DecayModel?

  public init(
    spring: (set: SpringParameterSet, parameters: SpringParameters)? = nil,
    decay: DecayModel? = nil
  ) {
    self.spring = spring
    self.decay = decay
  }

  public static func == (a: Self, b: Self) -> Bool {
    a.spring?.set == b.spring?.set && a.spring?.parameters == b.spring?.parameters
      && a.decay == b.decay
  }

  var fields: [ReplyField] {
    var fields: [ReplyField] = []
    if let (set, p) = spring {
      let names = (set.requiredFields + set.optionalFields).map(\.rawValue)
      fields.append(
        ReplyField("spring", .object([.strings("set", names)] + ReplyField.springFields(p))))
    }
    if let decay {
      let (field, value) = decay.parameter
      fields.append(
        ReplyField(
          "decay",
          .object([.number(field.rawValue, value, decimals: WireProtocol.angularDecimals)])))
    }
    return fields
  }
}

import Primitives

/// An interval a number must lie in: closed, or open at either end (e.g. `0 < dt ≤ 10`).
public struct NumberRange: Equatable, Sendable {
  /// The smallest allowed value (excluded when `excludesLowerBound`).
  public let lowerBound: Double
  /// The largest allowed value (excluded when `excludesUpperBound`).
  public let upperBound: Double
  /// True for ranges such as `density > 0` where the bound itself is not allowed.
  public let excludesLowerBound: Bool
  /// True for ranges such as a deceleration rate `< 1`.
  public let excludesUpperBound: Bool

  /// `lower ≤ x ≤ upper`.
  public static func closed(_ lower: Double, _ upper: Double) -> NumberRange {
    NumberRange(
      lowerBound: lower, upperBound: upper, excludesLowerBound: false, excludesUpperBound: false)
  }

  /// `lower < x ≤ upper`.
  public static func above(_ lower: Double, upTo upper: Double) -> NumberRange {
    NumberRange(
      lowerBound: lower, upperBound: upper, excludesLowerBound: true, excludesUpperBound: false)
  }

  /// `|x| ≤ limit`.
  public static func magnitude(_ limit: Double) -> NumberRange {
    .closed(-limit, limit)
  }

  /// The wire range of a motion parameter (`ParameterRange`, defined with the parameter).
  public init(_ range: ParameterRange) {
    self.init(
      lowerBound: range.lowerBound, upperBound: range.upperBound,
      excludesLowerBound: !range.includesLowerBound, excludesUpperBound: !range.includesUpperBound)
  }

  private init(
    lowerBound: Double, upperBound: Double, excludesLowerBound: Bool, excludesUpperBound: Bool
  ) {
    self.lowerBound = lowerBound
    self.upperBound = upperBound
    self.excludesLowerBound = excludesLowerBound
    self.excludesUpperBound = excludesUpperBound
  }

  /// Whether `value` lies in the range (never true for NaN).
  public func contains(_ value: Double) -> Bool {
    (excludesLowerBound ? value > lowerBound : value >= lowerBound)
      && (excludesUpperBound ? value < upperBound : value <= upperBound)
  }

  /// The range as words for an error message, e.g. "between 1 and 240".
  public var phrase: String {
    let low = plainNumber(lowerBound)
    let high = plainNumber(upperBound)
    switch (excludesLowerBound, excludesUpperBound) {
    case (false, false): return "between \(low) and \(high)"
    case (true, false): return "greater than \(low) and at most \(high)"
    case (false, true): return "at least \(low) and less than \(high)"
    case (true, true): return "greater than \(low) and less than \(high)"
    }
  }
}

/// Every numeric limit of the protocol, in one place.
///
/// Each limit keeps a hostile or mistaken client from reaching code that cannot cope (Box2D aborts
/// the whole process on degenerate shapes and propagates NaN silently), or from making the daemon
/// do unbounded work. Values are chosen so that every real UI scene fits with a wide margin.
public enum Limits {
  // MARK: Framing

  /// Default longest request line in bytes, without the `\n` (`dynd --max-line` changes it).
  /// One MiB holds a scene of the maximum item count with long paths many times over.
  public static let defaultMaxLineBytes = 1 << 20
  /// What `dynd --max-line` may set: 1 KiB up to 64 MiB (a client may take any line up to the
  /// largest as a daemon's).
  public static let maxLineBytes = 1024...(64 << 20)
  /// Deepest nesting of arrays and objects. The deepest valid request is 57 levels: a scene's
  /// field behavior inside `maxCompositeDepth` composites, with an action rule whose `set` effect
  /// gives a region `maxRegionDepth` levels deep made of unions, and that region's `size` (each
  /// composite and each union is an object and an array). 64 keeps that within reach and still
  /// bounds the parser's work on hostile nesting (json-c's own default is 32).
  public static let maxNestingDepth = 64
  /// Length in UTF-8 bytes of every name (session, item, behavior, boundary, transition, param).
  /// Names appear in every frame, so they stay short; empty names could not be addressed. Which
  /// characters a name may not contain is `NameCharacters`.
  public static let nameBytes = 1...256
  /// Most entries in `open`'s `params`; transitions have a handful of parameters.
  public static let maxParams = 64

  // MARK: Daemon

  /// Most sessions one daemon holds; `open` beyond it is answered `busy`. With the per-scene caps
  /// this bounds the memory sessions can take.
  public static let maxSessions = 20_000
  /// Most connected clients; further connections are accepted and closed at once. With each
  /// connection's bounded output this bounds the memory buffers can take.
  public static let maxConnections = 4_096
  /// Most sessions one client process (by its pid, from `SO_PEERCRED`) may have open: a quarter
  /// of `maxSessions`, so that no single client takes every slot. `open` beyond it is `busy`.
  public static let maxSessionsPerClient = 5_000
  /// Most connections from one client process; further ones are closed at once.
  public static let maxConnectionsPerClient = 1_024
  /// Output queued for all connections together beyond which a connection that is not reading
  /// (more than `slowReaderOutput` queued) is closed when more is sent to it.
  public static let totalOutputBudget = 256 << 20
  /// Output queued for one connection that counts it as not reading, for `totalOutputBudget`.
  public static let slowReaderOutput = 64 << 10

  // MARK: Connections: turns and back-pressure

  /// The longest the loop handles one connection's buffered requests before it serves the other
  /// ready connections (at least one request per turn): a connection that pipelines thousands of
  /// requests delays the others by one slice, not by all its requests.
  public static let requestSlice = Duration.milliseconds(2)
  /// Output queued for one connection beyond which its further requests wait, unread, until its
  /// peer has read the output down to `outputLowWater` (back-pressure, as tmux and Redis do): a
  /// client that pipelines and reads is paced, never disconnected.
  public static let outputHighWater = 1 << 20
  /// Output queued for one connection at which requests held by `outputHighWater` are handled
  /// again, and a paused manual `step` and coalesced frames resume.
  public static let outputLowWater = 64 << 10
  /// A connection with more than `outputHighWater` bytes queued whose peer reads none of them for
  /// this long is closed (its peer has stopped reading).
  public static let stalledReaderTimeout = Duration.seconds(30)
  /// Output queued for one connection beyond which realtime frames and contact events for it are
  /// coalesced (counted into the next frame's `dropped` / `dropped_contacts`).
  public static let frameBacklog = 128 << 10
  /// Output queued for one connection beyond which its manual `step` waits for it to read
  /// (flow control: a step's frames are never dropped).
  public static let stepBacklog = 128 << 10
  /// Output queued for one connection that closes it at once: a last resort for output that
  /// back-pressure does not pace (events for a peer that does not read, or one message larger
  /// than this by itself).
  public static let maxConnectionOutput = 8 << 20

  // MARK: Clock

  /// Frames per second of a session. 240 Hz is the fastest display refresh in use.
  public static let fps = NumberRange.closed(1, 240)
  /// Frames per second when `open` gives no `fps` (UIKit's display link default).
  public static let defaultFPS = 60.0
  /// Client timestamps `t` of gestures, in seconds. Wide enough for Unix time in seconds.
  public static let clientTime = NumberRange.magnitude(1e10)

  // MARK: Geometry

  /// Coordinates of centers, points, anchors, offsets and boundaries, in points. Beyond a million
  /// points Box2D (single precision, 100 pt per metre) loses sub-point resolution.
  public static let coordinate = NumberRange.magnitude(PropertyRanges.coordinate.upperBound)
  /// Each side of an item and of the scene bounds, in points. Box2D welds vertices closer than a
  /// quarter point and aborts on zero area, so items are at least 1 pt wide.
  public static let side = NumberRange.closed(1, 1e5)
  /// Each side of a transition's bounds (`open`'s `bounds`): the engine's
  /// `PropertyRanges.transitionSide`.
  public static let transitionSide = NumberRange(PropertyRanges.transitionSide)
  /// Angles in radians (item angle, gravity and push angle, pin ranges).
  public static let angle = NumberRange.magnitude(1e6)
  /// Each component of a linear velocity in pt/s (gestures, `add_velocity`): the engine's
  /// `PropertyRanges.velocity`.
  public static let speed = NumberRange(PropertyRanges.velocity)
  /// Angular velocities in rad/s (`add_velocity`'s `angular`).
  public static let angularSpeed = NumberRange.magnitude(1e4)
  /// Most items in a scene or in one behavior; every frame carries every item.
  public static let maxItemsPerScene = 1_000
  /// Most behaviors in a scene.
  public static let maxBehaviorsPerScene = 1_000
  /// The largest `behaviors` reply. A scene may hold 1 000 behaviors each listing 1 000 items
  /// of 64-byte ids: 67 MB, whose encoding held the loop for 340 ms and then passed the
  /// connection's output limit; such a scene's list is `out_of_range` instead (BENCHMARKS,
  /// "Isolation").
  public static let maxBehaviorsReplyBytes = 1 << 20
  /// The largest `debug` reply or event, as estimated from the scene's counts and id lengths
  /// before anything is built. A scene of 1 000 behaviors each listing 1 000 items of 250-byte
  /// ids made a 253 MB reply (a second of the loop, half a gigabyte). Beyond it `debug` is
  /// `out_of_range`; a frame's event lists the contacts that fit and counts the rest in
  /// `left_out` (PROTOCOL.md, "debug").
  public static let maxDebugBytes = 1 << 20
  /// Vertices of an item's convex `path`. Box2D polygons have at most 8; the engine splits larger
  /// paths into several fixtures, so the count stays small.
  public static let pathVertices = 3...64
  /// Points of a boundary `path` (an open or closed chain).
  public static let boundaryPoints = 2...1024
  /// Most boundaries in one collision behavior.
  public static let maxBoundariesPerBehavior = 256
  /// Box2D shapes one session may hold: item fixtures (one per rectangle or ellipse, one per
  /// piece of a split path) plus boundary segments (a reference-bounds boundary counts 4).
  /// Box2D's broad phase pairs every moved shape with every shape it overlaps: 4096 shapes piled
  /// on one spot make 8.4 million pairs (the pair search bound meets them over many steps), and
  /// 30 000 overflow its buffer and crash the process. `out_of_range` beyond it.
  public static let maxShapesPerSession = 4_096
  /// Box2D shapes all sessions together may hold (about 1 KB of memory each); `busy` beyond it.
  public static let maxShapesTotal = 1_000_000
  /// Contacts one session's world may hold at once. Box2D makes a contact for every pair of
  /// shapes whose boxes, grown by 10 pt, overlap; items piled on one spot would make n²/2 of them
  /// (500 000 for 1000 items), each solved every step: 4 096 touching took up to 8 ms a step,
  /// 16 384 up to 81 ms. Beyond this, further overlapping pairs do not collide until contacts
  /// end (the session is told once by a `contact_limit` event).
  public static let maxContactsPerSession = 4_096
  /// The pair search one internal step of a session does at most, about, in overlaps visited (a
  /// pair that may collide counts 8 in all; `DynamicAnimator.pairSearchLimit`): shapes piled on
  /// one spot make n²/2 pairs. Beyond it the moved shapes wait for the next step.
  public static let maxPairSearchPerStep = 32_768
  /// Contact events one frame of a session carries at most; the rest are left out and counted
  /// in the frame's `dropped_contacts` (a pile settling can begin and end thousands of contacts
  /// in one long frame: 15.7 MB of events for `step dt 1` on 1 000 stacked items).
  public static let maxContactEventsPerFrame = 256
  /// Smallest distance between consecutive vertices of a path or boundary, in points. Box2D
  /// rejects chain vertices closer than its linear slop (0.5 pt at 100 pt per metre).
  public static let minVertexSpacing = 1.0
  /// Smallest area of an item's path, in square points (that of the smallest item, 1 × 1).
  public static let minPathArea = 1.0
  /// Each reference-bounds inset, in points (negative insets extend the bounds).
  public static let inset = NumberRange.magnitude(1e6)

  // MARK: Behaviors

  /// Gravity `magnitude` and each `direction` component; 1 is 1000 pt/s², so 1000 is 1e6 pt/s².
  public static let gravityMagnitude = NumberRange.magnitude(1_000)
  /// Push `magnitude` and each `direction` component, in UIKit Newtons.
  public static let pushMagnitude = NumberRange.magnitude(1e6)
  /// Elasticity: UIKit documents 0 (no bounce) to 1 (completely elastic); more would add energy.
  public static let elasticity = NumberRange.closed(0, 1)
  /// Friction: 0 is none, 1 is strong; UIKit allows more (the engine's
  /// `PropertyRanges.friction`).
  public static let friction = NumberRange(PropertyRanges.friction)
  /// Density, relative to 1: the engine's `PropertyRanges.density` (positive; below 1e-6 a
  /// small item's mass would not be a positive `Float`, which Box2D needs).
  public static let density = NumberRange(PropertyRanges.density)
  /// Linear resistance (velocity damping), 0 … "CGFLOAT_MAX" in UIKit; the engine's
  /// `PropertyRanges.resistance`.
  public static let resistance = NumberRange(PropertyRanges.resistance)
  /// Angular resistance, as `resistance`.
  public static let angularResistance = NumberRange(PropertyRanges.resistance)
  /// Charge, for iOS 9 field behaviors (the engine's `PropertyRanges.charge`).
  public static let charge = NumberRange(PropertyRanges.charge)
  /// Snap damping: 0 oscillates most, 1 least (iOS 9+ documentation; the engine's
  /// `PropertyRanges.snapDamping`).
  public static let snapDamping = NumberRange(PropertyRanges.snapDamping)
  /// Attachment damping ratio: 1 is critical; larger values over-damp.
  public static let attachmentDamping = NumberRange.closed(0, 1_000)
  /// Attachment spring frequency in Hz (0 = rigid).
  public static let frequency = NumberRange.closed(0, 1_000)
  /// Attachment length in points: at most the diagonal of the coordinate space.
  public static let length = NumberRange.closed(0, 1e7)
  /// Attachment friction torque (iOS 9); UIKit gives no unit.
  public static let frictionTorque = NumberRange.closed(0, 1e6)

  // MARK: Springs and decay (extension)

  /// A spring parameter's range: the engine's own (`SpringField.range`, defined once with the
  /// parameters).
  public static func spring(_ field: SpringField) -> NumberRange { NumberRange(field.range) }

  /// A decay parameter's range: the engine's own (`DecayField.range`).
  public static func decay(_ field: DecayField) -> NumberRange { NumberRange(field.range) }

  // MARK: Fields and regions (iOS 9)

  /// A field's `strength` (UIKit's default 1; negative reverses radial gravity, a spring, an
  /// electric field, a vortex's turn): the engine's `PropertyRanges.fieldStrength`, which also
  /// bounds the force it applies.
  public static let fieldStrength = NumberRange(PropertyRanges.fieldStrength)
  /// A field's `falloff`: the exponent of the distance its strength decays with (0, UIKit's
  /// default, is uniform; 2 is an inverse square). Never negative, so a field never grows with
  /// distance across the ±1e6 pt coordinate space; at most the engine's 10
  /// (`FieldBehavior.falloffRange`), far beyond any physical law.
  public static let falloff = NumberRange.closed(0, 10)
  /// A field's `minimum_radius` in points, where the falloff starts: at most the coordinate
  /// bound (the engine's `PropertyRanges.minimumRadius`).
  public static let minimumRadius = NumberRange(PropertyRanges.minimumRadius)
  /// Each component of a field's `direction` (linear gravity, velocity fields; the engine's
  /// `PropertyRanges.fieldDirection`).
  public static let fieldDirection = NumberRange(PropertyRanges.fieldDirection)
  /// A field's `smoothness` (noise, turbulence): 0 noisiest … 1 smoothest, as UIKit documents
  /// (the engine's `PropertyRanges.smoothness`).
  public static let smoothness = NumberRange(PropertyRanges.smoothness)
  /// A field's `animation_speed` in Hz (noise, turbulence); 0 freezes the noise (the engine's
  /// `PropertyRanges.animationSpeed`).
  public static let animationSpeed = NumberRange(PropertyRanges.animationSpeed)
  /// A field's `seed` (noise, turbulence; an extension): a whole number up to 2^53, the largest
  /// range in which every whole number is a distinct double (every JSON number is a double).
  public static let fieldSeed = NumberRange.closed(0, 9_007_199_254_740_992)
  /// A region's `radius` and each side of its `size`, in points: 0 (an empty region) up to the
  /// diagonal of the coordinate space.
  public static let regionExtent = NumberRange.closed(0, 1e7)
  /// Deepest region: a region object is level 1, each `inverse`, `union`, `intersection` or
  /// `difference` adds a level for its operands.
  public static let maxRegionDepth = 16
  /// Most region objects in one region, operands included (a full tree 16 deep would have
  /// 65 535; the engine tests every item against the region every step).
  public static let maxRegionNodes = 64
  /// Fields × the items each acts on, summed over one session: each pair is a force evaluated
  /// every internal step. `out_of_range` beyond it (the daemon counts; groups count as one item).
  public static let maxFieldItemPairs = 8_192
  /// Items named by behaviors, counted once per behavior naming them, summed over one session:
  /// gravity and a continuous push act on each at every internal step, a collision behavior
  /// makes a collision group of each (1 000 gravity behaviors × 1 000 items took 46–60 ms a
  /// step). `out_of_range` beyond it.
  public static let maxItemReferences = 32_768

  // MARK: Groups, composites, action rules

  /// Most item groups (UIDynamicItemGroup) in a scene.
  public static let maxGroupsPerScene = 1_000
  /// Deepest composite: a composite in a scene's `behaviors` (or `add_behavior`) is level 1, a
  /// composite among its `children` level 2, and so on. Every behavior of the tree counts toward
  /// `maxBehaviorsPerScene`.
  public static let maxCompositeDepth = 8
  /// Most rules in one behavior's `action`.
  public static let maxActionRules = 16
  /// Most rules in one scene, all behaviors together (each is checked after every step).
  public static let maxActionRulesPerScene = 256
  /// Most effects in one rule's `then`.
  public static let maxActionEffects = 8
  /// The speed of a rule's `speed_below` and `speed_above`, pt/s (as `speed`, never negative).
  public static let actionSpeed = NumberRange.closed(0, 1e6)
  /// Width and height of a rectangle that selects items (`items_in_rect`, a rule's `inside` and
  /// `outside`), in points: 0 up to the width of the coordinate space, so one rectangle can cover
  /// all of it.
  public static let selectionSide = NumberRange.closed(0, 2e6)
}

/// A number for a message: integers without ".0", others in Swift's shortest form.
func plainNumber(_ value: Double) -> String {
  if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  return String(value)
}

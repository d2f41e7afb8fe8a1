import CBox2D
import Primitives

/// A handle to a Box2D body inside a `PhysicsWorld`.
struct BodyHandle: Hashable {
  let raw: Int32
}

/// A handle to a Box2D joint inside a `PhysicsWorld`.
struct JointHandle: Hashable {
  let raw: Int32
}

/// A raw contact report from the shim, in points.
struct RawContact {
  let began: Bool
  let bodyA: BodyHandle
  let tagA: Int32
  let bodyB: BodyHandle
  let tagB: Int32
  /// Mean contact point on `began`, and the same projected onto each fixture's surface.
  let point: Point?
  let pointOnA: Point?
  let pointOnB: Point?
}

/// Pose and motion of a body, in points, radians and seconds.
struct BodyState {
  var center: Point
  var angle: Double
  var velocity: Vector
  var angularVelocity: Double
  var isAwake: Bool
  /// Box2D's own Float pose (m, m, rad): unchanged means the body has not moved.
  var pose: SIMD3<Float> = .zero
}

/// The only door to the C shim: converts points to metres and statuses to errors.
///
/// Every call here is made outside `step`, so the shim never sees a mutation during a solve.
final class PhysicsWorld {
  /// Iterations per step: Box2D's recommended 8 velocity and 3 position iterations.
  static let velocityIterations: Int32 = 8
  static let positionIterations: Int32 = 3

  private let world: OpaquePointer
  private var contactBuffer: [cbox2d_contact_event] = []

  init() {
    guard let w = cbox2d_world_create() else { fatalError("out of memory creating a Box2D world") }
    world = w
  }

  deinit { cbox2d_world_destroy(world) }

  /// At most this many contacts at once; further overlapping pairs pass through each other.
  var contactLimit = Int32.max {
    didSet { _ = cbox2d_world_set_contact_limit(world, max(0, contactLimit)) }
  }
  /// Pairs the contact limit has refused so far.
  var refusedContacts: Int64 { cbox2d_world_refused_contacts(world) }
  /// About the most candidate pairs one step's broad phase meets; moved shapes beyond wait for
  /// the next step.
  var pairSearchLimit = Int32.max {
    didSet { _ = cbox2d_world_set_pair_search_limit(world, max(1, pairSearchLimit)) }
  }
  /// Times a moved shape has waited for a later step under the pair limit.
  var deferredProxies: Int64 { cbox2d_world_deferred_proxies(world) }
  /// Contacts now (pairs whose boxes overlap).
  var contactCount: Int { Int(cbox2d_world_contact_count(world)) }

  var bodyCount: Int { Int(cbox2d_world_body_count(world)) }
  var jointCount: Int { Int(cbox2d_world_joint_count(world)) }

  // MARK: step and contacts

  func step(_ dt: Double) {
    let status = cbox2d_world_step(
      world, Float(dt), Self.velocityIterations, Self.positionIterations)
    precondition(status == 0, "Box2D step refused: \(status)")
  }

  /// Takes every queued contact event (from steps and from destroy calls).
  func takeContacts() -> [RawContact] {
    let count = Int(cbox2d_world_contact_event_count(world))
    guard count > 0 else { return [] }
    if contactBuffer.count < count {
      contactBuffer = Array(repeating: cbox2d_contact_event(), count: count)
    }
    let n = contactBuffer.withUnsafeMutableBufferPointer {
      Int(cbox2d_world_take_contact_events(world, $0.baseAddress, Int32(count)))
    }
    return (0..<n).map { i in
      let e = contactBuffer[i]
      return RawContact(
        began: e.began, bodyA: BodyHandle(raw: e.body_a), tagA: e.tag_a,
        bodyB: BodyHandle(raw: e.body_b), tagB: e.tag_b,
        point: e.has_point ? Point(e.point) : nil,
        pointOnA: e.has_point ? Point(e.point_on_a) : nil,
        pointOnB: e.has_point ? Point(e.point_on_b) : nil)
    }
  }

  // MARK: bodies

  func createBody(_ type: cbox2d_body_type, center: Point, angle: Double) throws -> BodyHandle {
    let h = cbox2d_body_create(world, type, center.x.meters, center.y.meters, Float(angle))
    try check(h, "create a body at \(center)")
    return BodyHandle(raw: h)
  }

  func destroyBody(_ body: BodyHandle) {
    _ = cbox2d_body_destroy(world, body.raw)
  }

  func setType(_ body: BodyHandle, _ type: cbox2d_body_type) {
    _ = cbox2d_body_set_type(world, body.raw, type)
  }

  func addBox(_ body: BodyHandle, size: Size, tag: Int32 = 0) throws {
    let s = cbox2d_body_add_box(
      world, body.raw, (size.width / 2).meters, (size.height / 2).meters, tag)
    try check(s, "build a \(size.width)×\(size.height) box")
  }

  /// A circle of `radius` around `center` (pt, relative to the body origin).
  func addCircle(_ body: BodyHandle, radius: Double, center: Point = .zero, tag: Int32 = 0) throws {
    let s = cbox2d_body_add_circle(world, body.raw, center.vec2, radius.meters, tag)
    try check(s, "build a circle of radius \(radius)")
  }

  func addPolygon(_ body: BodyHandle, _ vertices: [Point], tag: Int32 = 0) throws {
    let v = vertices.map(\.vec2)
    let s = v.withUnsafeBufferPointer {
      cbox2d_body_add_polygon(world, body.raw, $0.baseAddress, Int32($0.count), tag)
    }
    try check(s, "build a polygon of \(vertices.count) vertices")
  }

  func addEdge(_ body: BodyHandle, from a: Point, to b: Point, tag: Int32) throws {
    try check(cbox2d_body_add_edge(world, body.raw, a.vec2, b.vec2, tag), "add a segment \(a)–\(b)")
  }

  func removeFixtures(_ body: BodyHandle, tag: Int32) {
    _ = cbox2d_body_remove_fixtures(world, body.raw, tag)
  }

  /// Sets mass (kg), centre of mass (pt, body-local) and inertia about it (kg·pt²).
  func setMass(_ body: BodyHandle, mass: Double, center: Point, inertia: Double) throws {
    let perSquareMeter = Units.pointsPerMeter * Units.pointsPerMeter
    let s = cbox2d_body_set_mass(
      world, body.raw, Float(mass), center.vec2, Float(inertia / perSquareMeter))
    try check(s, "set mass \(mass)")
  }

  func mass(_ body: BodyHandle) -> Double { Double(cbox2d_body_get_mass(world, body.raw)) }

  func setMaterial(_ body: BodyHandle, friction: Double, restitution: Double) {
    _ = cbox2d_body_set_material(world, body.raw, Float(friction), Float(restitution))
  }

  func setDamping(_ body: BodyHandle, linear: Double, angular: Double) {
    _ = cbox2d_body_set_damping(world, body.raw, Float(linear), Float(angular))
  }

  func setFixedRotation(_ body: BodyHandle, _ fixed: Bool) {
    _ = cbox2d_body_set_fixed_rotation(world, body.raw, fixed)
  }

  func setTransform(_ body: BodyHandle, center: Point, angle: Double) {
    _ = cbox2d_body_set_transform(world, body.raw, center.x.meters, center.y.meters, Float(angle))
  }

  func setVelocity(_ body: BodyHandle, _ v: Vector, angular: Double) {
    _ = cbox2d_body_set_velocity(world, body.raw, v.dx.meters, v.dy.meters, Float(angular))
  }

  func wake(_ body: BodyHandle) { _ = cbox2d_body_set_awake(world, body.raw, true) }
  /// Held by a finger: the body's contacts do not bounce.
  func setHeld(_ body: BodyHandle, _ held: Bool) { _ = cbox2d_body_set_held(world, body.raw, held) }
  /// Puts a body to sleep; Box2D zeroes its velocity.
  func sleep(_ body: BodyHandle) { _ = cbox2d_body_set_awake(world, body.raw, false) }

  func state(_ body: BodyHandle) -> BodyState {
    var s = cbox2d_body_state()
    _ = cbox2d_body_get_state(world, body.raw, &s)
    return BodyState(
      center: Point(x: s.x.points, y: s.y.points), angle: Double(s.angle),
      velocity: Vector(dx: s.vx.points, dy: s.vy.points),
      angularVelocity: Double(s.angular_velocity), isAwake: s.awake,
      pose: SIMD3(s.x, s.y, s.angle))
  }

  /// A force in UIKit Newtons (= N) at a world point; sleeping bodies ignore it.
  func applyForce(_ body: BodyHandle, _ force: Vector, at point: Point) {
    _ = cbox2d_body_apply_force(
      world, body.raw, cbox2d_vec2(x: Float(force.dx), y: Float(force.dy)), point.vec2, false)
  }

  /// The sum of the forces (UIKit Newtons) applied since the last step, which the next step
  /// applies; zero for a sleeping body.
  func appliedForce(_ body: BodyHandle) -> Vector {
    var f = cbox2d_vec2()
    _ = cbox2d_body_get_force(world, body.raw, &f)
    return Vector(dx: Double(f.x), dy: Double(f.y))
  }

  /// An impulse in UIKit Newton-seconds at a world point; wakes the body.
  func applyImpulse(_ body: BodyHandle, _ impulse: Vector, at point: Point) {
    _ = cbox2d_body_apply_impulse(
      world, body.raw, cbox2d_vec2(x: Float(impulse.dx), y: Float(impulse.dy)), point.vec2, true)
  }

  func setCollisionGroups(_ body: BodyHandle, items: [UInt32], boundaries: [UInt32]) {
    items.withUnsafeBufferPointer { i in
      boundaries.withUnsafeBufferPointer { b in
        _ = cbox2d_body_set_item_groups(
          world, body.raw, i.baseAddress, Int32(i.count), b.baseAddress, Int32(b.count))
      }
    }
  }

  func makeBoundary(_ body: BodyHandle, group: UInt32) {
    _ = cbox2d_body_make_boundary(world, body.raw, group)
  }

  // MARK: joints

  func createDistance(
    _ a: BodyHandle, _ b: BodyHandle, anchorA: Point, anchorB: Point, spec: DistanceSpec
  ) throws -> JointHandle {
    let h = cbox2d_joint_create_distance(
      world, a.raw, b.raw, anchorA.vec2, anchorB.vec2, spec.length.meters,
      spec.minLength.meters, spec.maxLength.meters, Float(spec.frequency),
      Float(spec.dampingRatio))
    try check(h, "create a distance attachment")
    return JointHandle(raw: h)
  }

  func setDistance(_ joint: JointHandle, _ spec: DistanceSpec) {
    _ = cbox2d_joint_set_distance(
      world, joint.raw, spec.length.meters, spec.minLength.meters, spec.maxLength.meters,
      Float(spec.frequency), Float(spec.dampingRatio))
  }

  func createPrismatic(
    _ a: BodyHandle, _ b: BodyHandle, anchor: Point, axis: Vector, range: FloatRange
  ) throws -> JointHandle {
    let limited = !range.isInfinite
    let h = cbox2d_joint_create_prismatic(
      world, a.raw, b.raw, anchor.vec2, cbox2d_vec2(x: Float(axis.dx), y: Float(axis.dy)),
      limited, limited ? clampedLength(range.minimum) : 0,
      limited ? clampedLength(range.maximum) : 0)
    try check(h, "create a sliding attachment")
    return JointHandle(raw: h)
  }

  func createWeld(_ a: BodyHandle, _ b: BodyHandle, anchor: Point) throws -> JointHandle {
    let h = cbox2d_joint_create_weld(world, a.raw, b.raw, anchor.vec2)
    try check(h, "create a fixed attachment")
    return JointHandle(raw: h)
  }

  func createRevolute(
    _ a: BodyHandle, _ b: BodyHandle, anchor: Point, frictionTorque: Double, range: FloatRange
  ) throws -> JointHandle {
    let limited = !range.isInfinite
    let h = cbox2d_joint_create_revolute(
      world, a.raw, b.raw, anchor.vec2, Float(frictionTorque), limited,
      limited ? Float(max(range.minimum, -1e6)) : 0, limited ? Float(min(range.maximum, 1e6)) : 0)
    try check(h, "create a pin attachment")
    return JointHandle(raw: h)
  }

  func createMouse(
    ground: BodyHandle, body: BodyHandle, grab: Point, frequency: Double, dampingRatio: Double,
    maxForce: Double
  ) throws -> JointHandle {
    let h = cbox2d_joint_create_mouse(
      world, ground.raw, body.raw, grab.vec2, Float(frequency), Float(dampingRatio),
      Float(maxForce))
    try check(h, "create a snap spring")
    return JointHandle(raw: h)
  }

  func setMouse(
    _ joint: JointHandle, target: Point, frequency: Double, dampingRatio: Double, maxForce: Double
  ) {
    _ = cbox2d_joint_set_mouse(
      world, joint.raw, target.vec2, Float(frequency), Float(dampingRatio), Float(maxForce))
  }

  func destroyJoint(_ joint: JointHandle) { _ = cbox2d_joint_destroy(world, joint.raw) }

  // MARK: helpers

  /// True when the shim would accept this polygon (pt, relative to a body origin).
  static func acceptsPolygon(_ vertices: [Point]) -> Bool {
    let v = vertices.map(\.vec2)
    return v.withUnsafeBufferPointer { cbox2d_polygon_check($0.baseAddress, Int32($0.count)) } == 0
  }

  private func clampedLength(_ v: Double) -> Float {
    Float(min(max(v, -1e9), 1e9) / Units.pointsPerMeter)
  }

  private func check(_ status: Int32, _ what: String) throws {
    guard status < 0 else { return }
    switch status {
    case CBOX2D_ERR_NON_FINITE.rawValue:
      throw DynamicsError(.nonFinite, "cannot \(what): a number is not finite or too large")
    case CBOX2D_ERR_DEGENERATE.rawValue, CBOX2D_ERR_TOO_MANY_VERTICES.rawValue,
      CBOX2D_ERR_NOT_CONVEX.rawValue:
      throw DynamicsError(.invalidShape, "cannot \(what): the shape is degenerate")
    case CBOX2D_ERR_SAME_BODY.rawValue, CBOX2D_ERR_BAD_HANDLE.rawValue:
      throw DynamicsError(.invalidReference, "cannot \(what): it must join two distinct items")
    default:
      throw DynamicsError(.outOfRange, "cannot \(what): Box2D status \(status)")
    }
  }
}

/// Lengths (pt) and spring of a distance joint.
struct DistanceSpec: Equatable {
  var length: Double
  var minLength: Double
  var maxLength: Double
  var frequency: Double
  var dampingRatio: Double
}

extension Point {
  var vec2: cbox2d_vec2 { cbox2d_vec2(x: x.meters, y: y.meters) }
  init(_ v: cbox2d_vec2) { self.init(x: v.x.points, y: v.y.points) }
}

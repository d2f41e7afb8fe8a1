import CBox2D
import Glibc
import Testing

/// Every input that would trip one of Debian's Box2D assertions (and abort the process) is
/// refused by the shim with a status instead.
@Suite("CBox2D shim")
struct ShimTests {
  let ok = CBOX2D_OK.rawValue

  func withWorld(_ body: (OpaquePointer) -> Void) {
    let w = cbox2d_world_create()!
    body(w)
    cbox2d_world_destroy(w)
  }

  func v(_ x: Float, _ y: Float) -> cbox2d_vec2 { cbox2d_vec2(x: x, y: y) }

  @Test func degenerateAndNonFiniteShapes() {
    withWorld { w in
      let b = cbox2d_body_create(w, CBOX2D_BODY_DYNAMIC, 0, 0, 0)
      #expect(b >= 0)
      #expect(cbox2d_body_add_box(w, b, 0, 0, 0) == CBOX2D_ERR_DEGENERATE.rawValue)
      #expect(cbox2d_body_add_box(w, b, 0.001, 1, 0) == CBOX2D_ERR_DEGENERATE.rawValue)
      #expect(cbox2d_body_add_box(w, b, .nan, 1, 0) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(cbox2d_body_add_circle(w, b, v(0, 0), 0, 0) == CBOX2D_ERR_DEGENERATE.rawValue)
      let collinear = [v(0, 0), v(1, 0), v(2, 0)]
      #expect(cbox2d_body_add_polygon(w, b, collinear, 3, 0) == CBOX2D_ERR_DEGENERATE.rawValue)
      let nine = (0..<9).map { i in
        v(cos(Float(i) * 0.7), sin(Float(i) * 0.7))
      }
      #expect(cbox2d_body_add_polygon(w, b, nine, 9, 0) == CBOX2D_ERR_TOO_MANY_VERTICES.rawValue)
      let concave = [v(0, 0), v(1, 0), v(0.2, 0.2), v(0, 1)]
      #expect(cbox2d_body_add_polygon(w, b, concave, 4, 0) == CBOX2D_ERR_NOT_CONVEX.rawValue)
      let repeated = [v(0, 0), v(0, 0), v(0, 0)]
      #expect(cbox2d_body_add_polygon(w, b, repeated, 3, 0) == CBOX2D_ERR_DEGENERATE.rawValue)
      #expect(cbox2d_body_add_polygon(w, b, nil, 3, 0) == CBOX2D_ERR_DEGENERATE.rawValue)
      let nan = [v(0, 0), v(.nan, 0), v(0, 1)]
      #expect(cbox2d_body_add_polygon(w, b, nan, 3, 0) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(cbox2d_body_add_edge(w, b, v(0, 0), v(0, 0.001), 0) == CBOX2D_ERR_DEGENERATE.rawValue)
      #expect(
        cbox2d_body_add_edge(w, b, v(0, 0), v(.infinity, 0), 0) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(cbox2d_body_add_box(w, b, 0.5, 0.5, 0) == ok)
    }
  }

  /// The force a step will apply is the sum of the forces Box2D accepted since the last step:
  /// none on a sleeping or static body, and none once the step used it.
  @Test func appliedForceIsWhatTheNextStepApplies() {
    withWorld { w in
      let b = cbox2d_body_create(w, CBOX2D_BODY_DYNAMIC, 0, 0, 0)
      #expect(cbox2d_body_add_box(w, b, 0.5, 0.5, 0) == ok)
      var f = cbox2d_vec2()
      #expect(cbox2d_body_get_force(w, b, &f) == ok && f.x == 0 && f.y == 0)
      #expect(cbox2d_body_apply_force(w, b, v(1, 2), v(0, 0), false) == ok)
      #expect(cbox2d_body_apply_force(w, b, v(0.5, -3), v(0, 0), false) == ok)
      #expect(cbox2d_body_get_force(w, b, &f) == ok && f.x == 1.5 && f.y == -1)
      #expect(cbox2d_world_step(w, 1.0 / 120, 8, 3) == ok)
      #expect(cbox2d_body_get_force(w, b, &f) == ok && f.x == 0 && f.y == 0)
      #expect(cbox2d_body_apply_force(w, b, v(4, 0), v(0, 0), false) == ok)
      #expect(cbox2d_body_set_awake(w, b, false) == ok)
      #expect(cbox2d_body_get_force(w, b, &f) == ok && f.x == 0)
      #expect(cbox2d_body_apply_force(w, b, v(4, 0), v(0, 0), false) == ok)  // asleep: ignored
      #expect(cbox2d_body_set_awake(w, b, true) == ok)
      #expect(cbox2d_body_get_force(w, b, &f) == ok && f.x == 0)
      #expect(cbox2d_body_apply_force(w, b, v(4, 0), v(0, 0), false) == ok)
      #expect(cbox2d_body_set_type(w, b, CBOX2D_BODY_STATIC) == ok)
      #expect(cbox2d_body_set_type(w, b, CBOX2D_BODY_DYNAMIC) == ok)
      #expect(cbox2d_body_get_force(w, b, &f) == ok && f.x == 0)
      #expect(cbox2d_body_get_force(w, 99, &f) == CBOX2D_ERR_BAD_HANDLE.rawValue)
    }
  }

  @Test func badBodiesAndMasses() {
    withWorld { w in
      #expect(
        cbox2d_body_create(w, CBOX2D_BODY_DYNAMIC, .nan, 0, 0) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(
        cbox2d_body_create(w, CBOX2D_BODY_DYNAMIC, 1e9, 0, 0) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(
        cbox2d_body_create(w, cbox2d_body_type(rawValue: 7), 0, 0, 0)
          == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      #expect(
        cbox2d_body_create(nil, CBOX2D_BODY_DYNAMIC, 0, 0, 0) == CBOX2D_ERR_NULL_WORLD.rawValue)
      let b = cbox2d_body_create(w, CBOX2D_BODY_DYNAMIC, 0, 0, 0)
      #expect(cbox2d_body_set_mass(w, b, 0, v(0, 0), 1) == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      #expect(cbox2d_body_set_mass(w, b, 1, v(0, 0), -1) == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      #expect(cbox2d_body_set_mass(w, b, .nan, v(0, 0), 1) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(cbox2d_body_set_damping(w, b, -1, 0) == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      #expect(cbox2d_body_set_material(w, b, 0, .infinity) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(cbox2d_body_set_velocity(w, b, .nan, 0, 0) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(cbox2d_body_set_transform(w, b, 0, .nan, 0) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(
        cbox2d_body_apply_force(w, b, v(.nan, 0), v(0, 0), true) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(
        cbox2d_body_apply_impulse(w, b, v(0, 0), v(.infinity, 0), true)
          == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(cbox2d_body_destroy(w, 99) == CBOX2D_ERR_BAD_HANDLE.rawValue)
      #expect(cbox2d_body_destroy(w, -1) == CBOX2D_ERR_BAD_HANDLE.rawValue)
      #expect(cbox2d_body_destroy(w, b) == ok)
      #expect(cbox2d_body_destroy(w, b) == CBOX2D_ERR_BAD_HANDLE.rawValue)  // twice
      #expect(cbox2d_world_step(w, .nan, 8, 3) == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(cbox2d_world_step(w, 1.0 / 120, 0, 3) == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
    }
  }

  @Test func badJoints() {
    withWorld { w in
      let a = cbox2d_body_create(w, CBOX2D_BODY_DYNAMIC, 0, 0, 0)
      let b = cbox2d_body_create(w, CBOX2D_BODY_STATIC, 1, 0, 0)
      #expect(
        cbox2d_joint_create_distance(w, a, a, v(0, 0), v(0, 0), 1, 1, 1, 0, 0)
          == CBOX2D_ERR_SAME_BODY.rawValue)
      #expect(
        cbox2d_joint_create_distance(w, a, 42, v(0, 0), v(0, 0), 1, 1, 1, 0, 0)
          == CBOX2D_ERR_BAD_HANDLE.rawValue)
      #expect(
        cbox2d_joint_create_distance(w, a, b, v(0, 0), v(1, 0), 1, 2, 1, 0, 0)
          == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      #expect(
        cbox2d_joint_create_distance(w, a, b, v(0, 0), v(1, 0), 1, 0, 2, -1, 0)
          == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      #expect(
        cbox2d_joint_create_distance(w, a, b, v(.nan, 0), v(1, 0), 1, 0, 2, 1, 0)
          == CBOX2D_ERR_NON_FINITE.rawValue)
      #expect(
        cbox2d_joint_create_prismatic(w, a, b, v(0, 0), v(0, 0), false, 0, 0)
          == CBOX2D_ERR_DEGENERATE.rawValue)
      #expect(
        cbox2d_joint_create_prismatic(w, a, b, v(0, 0), v(1, 0), true, 1, -1)
          == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      #expect(
        cbox2d_joint_create_revolute(w, a, b, v(0, 0), -1, false, 0, 0)
          == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      #expect(cbox2d_joint_create_weld(w, a, a, v(0, 0)) == CBOX2D_ERR_SAME_BODY.rawValue)
      #expect(
        cbox2d_joint_create_mouse(w, b, a, v(0, 0), 0, 1, 10) == CBOX2D_ERR_OUT_OF_RANGE.rawValue)
      let j = cbox2d_joint_create_distance(w, a, b, v(0, 0), v(1, 0), 1, 1, 1, 0, 0)
      #expect(j >= 0)
      #expect(cbox2d_joint_set_mouse(w, j, v(0, 0), 1, 1, 1) == CBOX2D_ERR_WRONG_KIND.rawValue)
      // Destroying a body frees its joints' handles: the joint is gone, not dangling.
      #expect(cbox2d_body_destroy(w, a) == ok)
      #expect(cbox2d_world_joint_count(w) == 0)
      #expect(cbox2d_joint_destroy(w, j) == CBOX2D_ERR_BAD_HANDLE.rawValue)
    }
  }

  @Test func contactEventsAreQueuedNotCalledBack() {
    withWorld { w in
      let ground = cbox2d_body_create(w, CBOX2D_BODY_STATIC, 0, 0, 0)
      #expect(cbox2d_body_make_boundary(w, ground, 1) == ok)
      #expect(cbox2d_body_add_edge(w, ground, v(-5, 1), v(5, 1), 7) == ok)
      let box = cbox2d_body_create(w, CBOX2D_BODY_DYNAMIC, 0, 0.5, 0)
      #expect(cbox2d_body_add_box(w, box, 0.2, 0.2, 3) == ok)
      #expect(cbox2d_body_set_mass(w, box, 1, v(0, 0), 0.1) == ok)
      let groups: [UInt32] = [1]
      #expect(cbox2d_body_set_item_groups(w, box, nil, 0, groups, 1) == ok)
      #expect(cbox2d_body_set_velocity(w, box, 0, 5, 0) == ok)
      for _ in 0..<30 { _ = cbox2d_world_step(w, 1.0 / 120, 8, 3) }
      #expect(cbox2d_world_contact_event_count(w) >= 1)
      var events = [cbox2d_contact_event](repeating: cbox2d_contact_event(), count: 4)
      let n = cbox2d_world_take_contact_events(w, &events, 4)
      #expect(n >= 1 && events[0].began && events[0].has_point)
      #expect(Set([events[0].tag_a, events[0].tag_b]) == [3, 7])
      #expect(cbox2d_world_contact_event_count(w) == 0)
      #expect(cbox2d_body_make_boundary(w, box, 2) == CBOX2D_ERR_WRONG_KIND.rawValue)
    }
  }
}

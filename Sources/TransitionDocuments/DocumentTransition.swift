import Dynamics
import Primitives
import SceneBuilding
import Transitions
import Wire

/// A transition made from a document (`TransitionDocument`): its scene laid out in the
/// session's bounds for the parameters it was opened with, driven by a scene's pan (the finger
/// grips the topmost item under it; the release hands the velocity over exactly: `ScenePan`).
/// It keeps the document it was opened with, whatever is defined later under its name.
public final class DocumentTransition: ScenePan {
  public let document: TransitionDocument

  override public var openedName: String { document.name }
  override public var declaredParameters: [TransitionParameter] { document.parameters }

  /// Builds `spec`, `document`'s scene laid out for a session (`TransitionDocument.scene`).
  public init(_ document: TransitionDocument, scene spec: SceneSpec) throws(ProtocolError) {
    let built = try SceneBuilder.build(spec)
    var groupOf: [ObjectIdentifier: DynamicItem] = [:]
    for group in built.groups {
      for member in group.groupMembers { groupOf[ObjectIdentifier(member)] = group }
    }
    let items = built.items
    let animator = built.animator
    var carriers: [ObjectIdentifier: DynamicItemBehavior] = [:]
    self.document = document
    super.init(
      animator: animator, items: items,
      hitTest: { point in
        items.last { ScenePan.holds($0, point) }.map { groupOf[ObjectIdentifier($0)] ?? $0 }
      },
      carrier: { item in
        // The last item behavior holding it, else one made to carry velocity to it.
        func holding(_ behaviors: [DynamicBehavior]) -> DynamicItemBehavior? {
          for behavior in behaviors.reversed() {
            if let found = holding(behavior.childBehaviors) { return found }
            if let d = behavior as? DynamicItemBehavior, d.items.contains(where: { $0 === item }) {
              return d
            }
          }
          return nil
        }
        if let held = holding(animator.behaviors) { return held }
        if let carrier = carriers[ObjectIdentifier(item)] { return carrier }
        let carrier = DynamicItemBehavior(items: [item])
        animator.addBehavior(carrier)
        carriers[ObjectIdentifier(item)] = carrier
        return carrier
      })
  }

  /// Not opened by a class name: a document transition is made from its document.
  public required init(parameters: ParameterValues, bounds: Rect) throws {
    throw TransitionError(
      kind: .unknownParameter, message: "a document transition is made from its document")
  }
}

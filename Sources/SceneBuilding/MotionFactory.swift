import Dynamics
import Primitives
import Wire

/// Spring and decay behaviors' `set_behavior` updates: new items, and a spring retargeted in
/// flight (`SpringBehavior.retarget`: every item starts afresh from where it is, moving as it
/// moves, so nothing jumps) or a decay given a new model.
extension BehaviorFactory {
  func apply(_ u: BehaviorUpdate, items newItems: [DynamicItem]?, to s: SpringBehavior)
    throws(ProtocolError)
  {
    let parameters = try u.spring.map { (values) throws(ProtocolError) in
      guard let p = values.parameters else {
        throw ProtocolError(.outOfRange, "the spring's parameters are outside their ranges")
      }
      return p
    }
    if u.target != nil || parameters != nil {
      try engine { try s.retarget(to: u.target ?? s.target, parameters: parameters) }
    }
    if let newItems { replaceItems(newItems, s.items, add: s.addItem, remove: s.removeItem) }
  }

  func apply(_ u: BehaviorUpdate, items newItems: [DynamicItem]?, to d: DecayBehavior)
    throws(ProtocolError)
  {
    if let model = u.decay { try engine { try d.setModel(model) } }
    if let newItems { replaceItems(newItems, d.items, add: d.addItem, remove: d.removeItem) }
  }
}

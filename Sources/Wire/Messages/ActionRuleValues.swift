import JSON
import Primitives

/// Regions, action rules and `set_behavior` fields as reply values: the form a request gives
/// them, for the `behaviors` reply and the debug geometry (positions with 3 decimals, other
/// numbers with 6; see `BehaviorSpec.stateFields`).
extension RegionSpec {
  /// The region as its JSON object (`{"radius": 40}`, `{"union": [R, R]}`, …).
  public var replyValue: ReplyValue {
    switch self {
    case .infinite: return .object([.bool("infinite", true)])
    case .radius(let r): return .object([.number("radius", r)])
    case .size(let s): return .object([ReplyField("size", linear(s.width, s.height))])
    case .inverse(let r): return .object([ReplyField("inverse", r.replyValue)])
    case .union(let a, let b), .intersection(let a, let b), .difference(let a, let b):
      return .object([ReplyField(key, .array([a.replyValue, b.replyValue]))])
    }
  }
}

extension ActionRule {
  /// The rule as its JSON object; `repeat` only when true.
  public var replyValue: ReplyValue {
    var fields = [
      ReplyField("when", when.replyValue), ReplyField("then", .array(then.map(\.replyValue))),
    ]
    if repeats { fields.append(.bool("repeat", true)) }
    return .object(fields)
  }
}

extension ActionCondition {
  var replyValue: ReplyValue {
    switch self {
    case .always:
      return .object([.bool("always", true)])
    case .inside(let item, let r):
      return .object([.string("item", item), ReplyField("inside", rect(r))])
    case .outside(let item, let r):
      return .object([.string("item", item), ReplyField("outside", rect(r))])
    case .speedBelow(let item, let speed):
      return .object([.string("item", item), .number("speed_below", speed)])
    case .speedAbove(let item, let speed):
      return .object([.string("item", item), .number("speed_above", speed)])
    }
  }
}

extension ActionEffect {
  var replyValue: ReplyValue {
    switch self {
    case .emit(let name): return .object([.string("emit", name)])
    case .removeBehavior(let id): return .object([.string("remove_behavior", id)])
    case .set(let behavior, let fields):
      // The fields as the rule gave them (`BehaviorFields`), after the behavior's id.
      var set = JSONWriter(capacity: fields.text.utf8.count + 32)
      set.raw(#"{"behavior":"#)
      set.string(behavior)
      set.byte(",")
      set.bytes.append(contentsOf: fields.text.utf8.dropFirst())
      return .object([ReplyField("set", .encoded(set.bytes))])
    }
  }
}

extension BoundarySpec {
  /// `{id, from, to}` or `{id, path}`.
  var replyValue: ReplyValue {
    switch shape {
    case .segment(let from, let to):
      return .object([
        .string("id", id), ReplyField("from", linear(from.x, from.y)),
        ReplyField("to", linear(to.x, to.y)),
      ])
    case .path(let points):
      return .object([
        .string("id", id), ReplyField("path", .array(points.map { linear($0.x, $0.y) })),
      ])
    }
  }
}

extension ReplyValue {
  /// A whole number written exactly, whatever its size (a field's `seed`).
  static func whole(_ value: UInt64) -> ReplyValue { .encoded(Array(String(value).utf8)) }
}

private func linearNumber(_ value: Double) -> ReplyValue {
  .number(value, decimals: WireProtocol.linearDecimals)
}

private func angularNumber(_ value: Double) -> ReplyValue {
  .number(value, decimals: WireProtocol.angularDecimals)
}

private func linear(_ a: Double, _ b: Double) -> ReplyValue {
  .array([linearNumber(a), linearNumber(b)])
}

private func angular(_ a: Double, _ b: Double) -> ReplyValue {
  .array([angularNumber(a), angularNumber(b)])
}

private func rect(_ r: Rect) -> ReplyValue {
  .array([r.minX, r.minY, r.size.width, r.size.height].map(linearNumber))
}

import Primitives

/// What made a `handoff`'s item velocity differ from the finger's (its `constraints`): the
/// engine's own `MotionConstraint`, whose `kind` is the word on the wire. One type, named here
/// for the protocol's readers; new code can say `MotionConstraint`.
public typealias HandoffConstraint = MotionConstraint

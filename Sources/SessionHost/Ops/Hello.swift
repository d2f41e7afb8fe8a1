import Transitions
import Wire

extension SessionHost {
  /// `hello`: the protocol version, the server and the transitions it offers.
  func hello() -> ReplyBody {
    .hello(version: configuration.version, transitions: TransitionRegistry.names)
  }
}

import RunnerProtocol

/// The service protocol: what a client and `translation-host serve` say over
/// the per-user socket, one message per frame (`FrameChannel`, `WireFormat`).
/// The client's first request is `hello`; the service answers every request
/// with exactly one `ServiceReply`, in order.
package enum ServiceProtocol {
  /// Bumped on any incompatible change to the messages below.
  package static let version = 3
}

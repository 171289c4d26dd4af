import System

/// The runner protocol: what the host and a `translation-provider-runner`
/// say to each other over their socket, one message per frame (see
/// `FrameChannel` and `WireFormat`). Version `Runner.protocolVersion`; the host's first
/// request is `hello`, and a runner of another version refuses it.
package enum Runner {
  /// Bumped on any incompatible change to the messages below.
  package static let protocolVersion = 3
  /// The descriptor on which a runner finds its end of the socket.
  package static let descriptor = FileDescriptor(rawValue: 3)
}

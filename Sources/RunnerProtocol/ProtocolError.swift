import System

/// A broken conversation between host and runner.
package enum ProtocolError: HostErrorConvertible, Equatable {
  /// The peer closed the socket.
  case closed
  /// Nothing arrived before the deadline.
  case timedOut
  /// A frame announced more bytes than `FrameChannel.maximumFrameSize`.
  case oversized(Int)
  /// A frame's content is not a valid message.
  case malformed(String)
  /// The peer speaks another protocol version.
  case versionMismatch(host: Int, runner: Int)
  /// Reading or writing the socket failed.
  case io(Errno)
  /// A violation the resident service saw and reported in these words.
  case reported(String)

  package var description: String {
    switch self {
    case .closed: "the runner closed the connection"
    case .timedOut: "no answer before the deadline"
    case .oversized(let size): "a message of \(size) bytes exceeds the \(FrameChannel.maximumFrameSize)-byte limit"
    case .malformed(let reason): "malformed message: \(reason)"
    case .versionMismatch(let host, let runner):
      "the runner speaks protocol \(runner) but this host speaks \(host); reinstall translation-host so both match"
    case .io(let errno): "socket error: \(errno)"
    case .reported(let words): words
    }
  }

  package var hostError: HostError { HostError(.failure, description) }
}

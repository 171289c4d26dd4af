import Dispatch
import Testing

@testable import RunnerProtocol
@testable import System

/// `receiveIfArrived`: a message when one has begun to arrive, nil without
/// waiting when none has, the peer's leaving as `.closed`, and the bytes of
/// one `recv` that hold several messages kept for the next looks.
@Suite struct FrameChannelArrivalTests {
  enum Peer: CaseIterable, Sendable {
    /// Sends nothing: nil, at once.
    case silent
    /// Sends one message: it, then nil.
    case oneMessage
    /// Sends three messages at once: each in turn from what one `recv` read, then nil.
    case threeMessages
    /// Sends the first half of a frame, and the rest a moment later: the message, once whole.
    case splitFrame
    /// Closes its end: `.closed`.
    case leaves
  }

  static let requests: [RunnerRequest] = (0..<3).map { .translate(source: "en", target: "es", texts: ["text \($0)"]) }

  @Test(arguments: Peer.allCases)
  func aMessageIsTakenOnlyWhenItArrived(_ peer: Peer) throws {
    let (sender, socket): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    let runner = FrameChannel(fd: socket)
    var senderOpen = true
    defer { if senderOpen { Syscalls.close(sender) } }
    switch peer {
    case .silent:
      #expect(try runner.receiveIfArrived(RunnerRequest.self) == nil)
    case .oneMessage:
      try Syscalls.writeAll(sender, try Self.frame(Self.requests[0]))
      #expect(try runner.receiveIfArrived(RunnerRequest.self) == Self.requests[0])
      #expect(try runner.receiveIfArrived(RunnerRequest.self) == nil)
    case .threeMessages:
      try Syscalls.writeAll(sender, try Self.requests.flatMap(Self.frame))
      for request in Self.requests { #expect(try runner.receiveIfArrived(RunnerRequest.self) == request) }
      #expect(try runner.receiveIfArrived(RunnerRequest.self) == nil)
    case .splitFrame:
      let frame = try Self.frame(Self.requests[1])
      try Syscalls.writeAll(sender, Array(frame[..<(frame.count / 2)]))
      let rest = Array(frame[(frame.count / 2)...])
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { try? Syscalls.writeAll(sender, rest) }
      #expect(try runner.receiveIfArrived(RunnerRequest.self) == Self.requests[1])
    case .leaves:
      Syscalls.close(sender)
      senderOpen = false
      #expect(throws: ProtocolError.closed) { try runner.receiveIfArrived(RunnerRequest.self) }
    }
  }

  /// `request`'s frame, as a channel sends it.
  private static func frame(_ request: RunnerRequest) throws -> [UInt8] {
    let (a, b): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    defer { Syscalls.close(b) }
    try FrameChannel(fd: a).send(request)
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = try bytes.withUnsafeMutableBytes { try UnixSocket.receiveNow(b, into: $0) }
    return Array(bytes[..<count])
  }
}

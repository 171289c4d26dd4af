import Glibc
import Testing
@testable import TranslationHostCore

@Suite struct FrameChannelTests {
  private func pair() throws -> (FrameChannel, FrameChannel) {
    let (a, b) = try Syscalls.socketPair()
    return (FrameChannel(fd: a), FrameChannel(fd: b))
  }

  @Test func messagesRoundTrip() throws {
    let (host, runner) = try pair()
    let requests: [RunnerRequest] = [
      .hello(protocolVersion: 1, bundleIdentifier: "a.b", bundlePath: "/p", executablePath: "/p/x.so"),
      .openScene(inputText: "ñ\u{0}x", allowsReplacement: true, sourceLanguage: nil, targetLanguage: "es"),
      .translate(source: "en", target: "es", texts: ["a", ""]),
    ]
    for request in requests { try host.send(request) }
    for request in requests { #expect(try runner.receive(RunnerRequest.self) == request) }
  }

  @Test func oversizedFramesAreRefused() throws {
    let (a, b) = try Syscalls.socketPair()
    let receiver = FrameChannel(fd: b)
    var header: [UInt8] = [0x7f, 0xff, 0xff, 0xff]
    _ = write(a, &header, 4)
    close(a)
    #expect(throws: ProtocolError.oversized(0x7fff_ffff)) { try receiver.receive(RunnerRequest.self) }
  }

  @Test func malformedFramesAreRefused() throws {
    let (a, b) = try Syscalls.socketPair()
    let receiver = FrameChannel(fd: b)
    var frame: [UInt8] = [0, 0, 0, 3] + Array("{x}".utf8)
    _ = write(a, &frame, frame.count)
    close(a)
    #expect(throws: ProtocolError.self) { try receiver.receive(RunnerRequest.self) }
  }

  @Test func aClosedPeerAndADeadlineAreReported() throws {
    let (host, runner) = try pair()
    #expect(throws: ProtocolError.timedOut) {
      try runner.receive(RunnerRequest.self, deadline: Syscalls.monotonicNanoseconds() + 20_000_000)
    }
    _ = host
    let (a, b) = try Syscalls.socketPair()
    close(a)
    #expect(throws: ProtocolError.closed) { try FrameChannel(fd: b).receive(RunnerRequest.self) }
  }
}

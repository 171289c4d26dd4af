import Glibc
import TestSupport
import Testing

@testable import RunnerProtocol
@testable import System

@Suite struct FrameChannelTests {
  private func pair() throws -> (FrameChannel, FrameChannel) {
    let (a, b): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    return (FrameChannel(fd: a), FrameChannel(fd: b))
  }

  @Test func messagesRoundTrip() throws {
    let (host, runner) = try pair()
    let requests: [RunnerRequest] = [
      .hello(protocolVersion: 2, bundleIdentifier: "a.b", bundlePath: "/p", executablePath: "/p/x.so", settings: "{}"),
      .openScene(inputText: "ñ\u{0}x", allowsReplacement: true, sourceLanguage: nil, targetLanguage: "es"),
      .translate(source: "en", target: "es", texts: ["a", ""]),
    ]
    for request in requests { try host.send(request) }
    for request in requests { #expect(try runner.receive(RunnerRequest.self) == request) }
  }

  @Test func oversizedFramesAreRefused() throws {
    let (a, b): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    let receiver = FrameChannel(fd: b)
    try Syscalls.writeAll(a, [0x7f, 0xff, 0xff, 0xff])
    Syscalls.close(a)
    #expect(throws: ProtocolError.oversized(0x7fff_ffff)) { try receiver.receive(RunnerRequest.self) }
  }

  @Test func malformedFramesAreRefused() throws {
    let (a, b): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    let receiver = FrameChannel(fd: b)
    try Syscalls.writeAll(a, [0, 0, 0, 3] + Array("{x}".utf8))
    Syscalls.close(a)
    #expect(throws: ProtocolError.self) { try receiver.receive(RunnerRequest.self) }
  }

  @Test func aClosedPeerAndADeadlineAreReported() throws {
    let (host, runner) = try pair()
    #expect(throws: ProtocolError.timedOut) {
      try runner.receive(RunnerRequest.self, deadline: .after(.milliseconds(20)))
    }
    _ = host
    let (a, b): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    Syscalls.close(a)
    #expect(throws: ProtocolError.closed) { try FrameChannel(fd: b).receive(RunnerRequest.self) }
  }
}

@Suite struct WireFormatTests {
  static let messages: [RunnerMessage] = [
    .reply(.ready(protocolVersion: 1, providerABI: "1.1", capabilities: [.translate], sandbox: [.pidNamespace, .networkFilter])),
    .reply(.view(json: #"{"version":1,"root":{"type":"text","text":"ñ 😀"}}"#)),
    .reply(.translations(["a", "", "ü\u{0}b"])),
    .reply(.languages([LanguagePairStatus(source: "en", target: "es", availability: .supported, note: "apt-get install x")])),
    .reply(.failure(RunnerFailure(kind: .provider, status: .unsupportedLanguagePairing, message: "no"))),
    .reply(.failure(RunnerFailure(kind: .load, message: "gone"))),
    .event(.finished(translation: nil)), .event(.finished(translation: "x")), .event(.violation("twice")),
  ]

  private func bytes(_ message: some WireCodable) -> [UInt8] {
    var writer = WireWriter()
    message.encode(to: &writer)
    return writer.bytes
  }

  @Test(arguments: messages) func messagesRoundTrip(_ message: RunnerMessage) throws {
    var reader = WireReader(bytes(message))
    #expect(try RunnerMessage(from: &reader) == message)
    #expect(reader.isAtEnd)
  }

  @Test(arguments: messages) func everyTruncationIsRefusedNotTrusted(_ message: RunnerMessage) {
    let full = bytes(message)
    for length in 0..<full.count {
      var reader = WireReader(Array(full.prefix(length)))
      #expect(throws: ProtocolError.self) { try RunnerMessage(from: &reader) }
    }
  }

  @Test func invalidUTF8AndLyingLengthsAreRefused() {
    var notUTF8 = WireReader([1, 3, 0, 0, 0, 2, 0xC3, 0x28])
    #expect(throws: ProtocolError.malformed("a string is not valid UTF-8")) { try RunnerMessage(from: &notUTF8) }
    var longList = WireReader([1, 6, 0x7F, 0xFF, 0xFF, 0xFF])
    #expect(throws: ProtocolError.malformed("a list is longer than the message")) { try RunnerMessage(from: &longList) }
  }

  /// A crash here ends the test run: the seed to repeat it was printed first.
  @Test func randomBytesNeverCrashTheDecoder() {
    var generator = SeededGenerator(for: "WireFormatTests, random bytes")
    for _ in 0..<2_000 {
      let bytes = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var reader = WireReader(bytes)
      _ = try? RunnerMessage(from: &reader)
      var requestReader = WireReader(bytes)
      _ = try? RunnerRequest(from: &requestReader)
    }
  }
}

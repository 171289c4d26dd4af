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

/// How frames travel when the socket hands them over in pieces, several at
/// once, or larger than the channel's buffer: the channel reads into one
/// buffer it keeps and decodes frames where they lie, so each case checks
/// what is left in it between calls as well as what comes out.
@Suite struct FrameChannelBufferTests {
  static let messages: [RunnerRequest] = [
    .ping,
    .translate(source: "en", target: "es", texts: ["The cat is on the table.", "", "ñ\u{0}😀"]),
    .setText(id: "field", value: String(repeating: "x", count: 300)),
  ]

  /// The three messages' frames, one after the other, as one stream.
  static let stream: [UInt8] = messages.flatMap(frame)

  static func frame(_ message: RunnerRequest) -> [UInt8] {
    var writer = WireWriter()
    writer.integer(0)
    message.encode(to: &writer)
    writer.setInteger(Int32(writer.count - 4), at: 0)
    return writer.bytes
  }

  /// Where each frame of `stream` ends.
  static let frameEnds: [Int] = messages.map { frame($0).count }.reduce(into: []) { $0.append(($0.last ?? 0) + $1) }

  private func pair() throws -> (writer: FileDescriptor, reader: FrameChannel) {
    let (a, b): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    return (a, FrameChannel(fd: b))
  }

  /// The stream cut in two at every length: inside a length, at a frame's
  /// end, inside a body. The frames whole in the first part come out; the
  /// next one waits (its beginning kept) until the rest arrives.
  @Test(arguments: 1..<FrameChannelBufferTests.stream.count)
  func aStreamCutAnywhereComesOutWhole(_ cut: Int) throws {
    let (writer, reader) = try pair()
    defer { Syscalls.close(writer) }
    try Syscalls.writeAll(writer, Array(Self.stream[..<cut]))
    let whole = Self.frameEnds.count(where: { $0 <= cut })
    for index in 0..<whole { #expect(try reader.receive(RunnerRequest.self) == Self.messages[index]) }
    if whole < Self.messages.count {
      #expect(throws: ProtocolError.timedOut) {
        try reader.receive(RunnerRequest.self, deadline: .after(.milliseconds(5)))
      }
      #expect(reader.pendingByteCount == cut - (whole == 0 ? 0 : Self.frameEnds[whole - 1]))
    }
    try Syscalls.writeAll(writer, Array(Self.stream[cut...]))
    for index in whole..<Self.messages.count {
      #expect(try reader.receive(RunnerRequest.self, deadline: .after(.seconds(5))) == Self.messages[index])
    }
    #expect(reader.pendingByteCount == 0)
  }

  /// The stream a byte at a time, each byte written while the reader waits.
  @Test func aStreamByteByByteComesOutWhole() throws {
    let (writer, reader) = try pair()
    DetachedThread.start(name: "byte-writer") {
      for byte in Self.stream {
        try? Syscalls.writeAll(writer, [byte])
        Syscalls.sleep(for: .microseconds(50))
      }
      Syscalls.close(writer)
    }
    for message in Self.messages { #expect(try reader.receive(RunnerRequest.self, deadline: .after(.seconds(20))) == message) }
    #expect(throws: ProtocolError.closed) { try reader.receive(RunnerRequest.self) }
  }

  struct Sized: Sendable, CustomTestStringConvertible {
    var bytes: Int
    var testDescription: String { "a text of \(bytes) bytes" }
  }

  /// Frames larger than the buffer it starts with (64 KiB), up to the largest
  /// a client may send, then a small one: the buffer grows as bytes arrive,
  /// and the small frame after it is read as any other.
  @Test(arguments: [Sized(bytes: 65_000), Sized(bytes: 65_536), Sized(bytes: 300_000), Sized(bytes: 4 << 20)])
  func framesLargerThanTheBufferRoundTrip(_ size: Sized) throws {
    let (a, b): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    let (sender, receiver) = (FrameChannel(fd: a), FrameChannel(fd: b))
    let text = String(repeating: "é", count: size.bytes / 2)
    DetachedThread.start(name: "large-writer") {
      try? sender.send(RunnerRequest.translate(source: "en", target: "es", texts: [text]))
      try? sender.send(RunnerRequest.ping)
    }
    let large = try receiver.receive(RunnerRequest.self, deadline: .after(.seconds(20)))
    #expect(large == .translate(source: "en", target: "es", texts: [text]))
    #expect(try receiver.receive(RunnerRequest.self, deadline: .after(.seconds(5))) == .ping)
  }

  struct Announced: Sendable, CustomTestStringConvertible {
    var length: UInt32
    var refused: Bool
    var testDescription: String { "a frame announcing \(length) bytes" }
  }

  /// A length above the limit is refused before any of its body is read
  /// (nor room made for it); one at the limit is waited for.
  @Test(arguments: [
    Announced(length: UInt32(FrameChannel.maximumFrameSize) + 1, refused: true),
    Announced(length: 0x7fff_ffff, refused: true), Announced(length: 0xffff_ffff, refused: true),
    Announced(length: UInt32(FrameChannel.maximumFrameSize), refused: false),
  ])
  func oversizedLengthsAreRefusedBeforeTheirBody(_ test: Announced) throws {
    let (writer, reader) = try pair()
    defer { Syscalls.close(writer) }
    let length = test.length
    try Syscalls.writeAll(
      writer, [UInt8(length >> 24), UInt8((length >> 16) & 0xff), UInt8((length >> 8) & 0xff), UInt8(length & 0xff), 1])
    if test.refused {
      #expect(throws: ProtocolError.self) { try reader.receive(RunnerRequest.self, deadline: .after(.seconds(5))) }
    } else {
      #expect(throws: ProtocolError.timedOut) {
        try reader.receive(RunnerRequest.self, deadline: .after(.milliseconds(20)))
      }
    }
  }

  /// A frame that does not decode is consumed whole: the one after it is read.
  @Test func aMalformedFrameIsSkippedAndTheNextOneRead() throws {
    let (writer, reader) = try pair()
    defer { Syscalls.close(writer) }
    try Syscalls.writeAll(writer, [0, 0, 0, 2, 99, 99] + Self.frame(.ping))
    #expect(throws: ProtocolError.self) { try reader.receive(RunnerRequest.self) }
    #expect(try reader.receive(RunnerRequest.self) == .ping)
  }

  /// Threads sending at once (a provider's events) never interleave their
  /// frames: each one arrives whole.
  @Test func concurrentSendersNeverInterleaveFrames() throws {
    let (a, b): (FileDescriptor, FileDescriptor) = try Syscalls.socketPair()
    let (sender, receiver) = (FrameChannel(fd: a), FrameChannel(fd: b))
    let (threads, each) = (4, 200)
    for thread in 0..<threads {
      DetachedThread.start(name: "sender") {
        for index in 0..<each {
          try? sender.send(RunnerRequest.setText(id: "\(thread)", value: String(repeating: "v", count: index * 37 % 5_000)))
        }
      }
    }
    var next = [Int](repeating: 0, count: threads)
    for _ in 0..<threads * each {
      guard case .setText(let id, let value) = try receiver.receive(RunnerRequest.self, deadline: .after(.seconds(20))),
        let thread = Int(id)
      else { throw ProtocolError.malformed("not a frame that was sent") }
      #expect(value.count == next[thread] * 37 % 5_000)
      next[thread] += 1
    }
    #expect(next == [Int](repeating: each, count: threads))
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

  struct Text: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    /// What it decodes to; nil when it must be refused.
    var decoded: String?
    var testDescription: String { name }
  }

  /// Strings are decoded by the fast path that repairs bad UTF-8 and kept
  /// only when nothing was repaired: bad input whose repair has the same
  /// length (a truncated 4-byte sequence becomes one U+FFFD of 3 bytes) must
  /// be refused, and a real U+FFFD kept.
  static let texts: [Text] = [
    Text(name: "empty", bytes: [], decoded: ""),
    Text(name: "ASCII", bytes: Array("The cat.".utf8), decoded: "The cat."),
    Text(name: "NUL inside", bytes: [0x61, 0, 0x62], decoded: "a\u{0}b"),
    Text(name: "two, three and four bytes", bytes: Array("ñ€😀".utf8), decoded: "ñ€😀"),
    Text(name: "a real U+FFFD", bytes: [0xEF, 0xBF, 0xBD], decoded: "\u{FFFD}"),
    Text(
      name: "longer than a small string", bytes: Array(String(repeating: "é", count: 40).utf8),
      decoded: String(repeating: "é", count: 40)),
    Text(name: "a truncated 4-byte sequence (repaired to 3 bytes)", bytes: [0xF0, 0x90, 0x80], decoded: nil),
    Text(name: "a truncated 4-byte sequence, then text", bytes: [0xF0, 0x90, 0x80, 0x61], decoded: nil),
    Text(name: "a surrogate", bytes: [0xED, 0xA0, 0x80], decoded: nil),
    Text(name: "an overlong slash", bytes: [0xC0, 0xAF], decoded: nil),
    Text(name: "a lone continuation byte", bytes: [0x61, 0x80], decoded: nil),
    Text(name: "beyond U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], decoded: nil),
    Text(name: "0xFF", bytes: [0xFF], decoded: nil),
  ]

  @Test(arguments: texts)
  func stringsAreValidUTF8OrRefused(_ test: Text) throws {
    let count = UInt32(test.bytes.count)
    // A translate request with one text: its strings are "en", "es" and this one.
    var writer = WireWriter()
    RunnerRequest.translate(source: "en", target: "es", texts: ["x"]).encode(to: &writer)
    let prefix = Array(writer.bytes.dropLast(5))
    let bytes =
      prefix + [UInt8(count >> 24), UInt8((count >> 16) & 0xff), UInt8((count >> 8) & 0xff), UInt8(count & 0xff)] + test.bytes
    var reader = WireReader(bytes)
    if let decoded = test.decoded {
      #expect(try RunnerRequest(from: &reader) == .translate(source: "en", target: "es", texts: [decoded]))
    } else {
      #expect(throws: ProtocolError.malformed("a string is not valid UTF-8")) { try RunnerRequest(from: &reader) }
    }
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

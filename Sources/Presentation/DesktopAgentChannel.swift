import FoundationEssentials
import Service
import System

/// How a program that must not load GTK (the resident service's D-Bus
/// `Present`, an app's `translationPresentation`) has the resident desktop
/// agent show a popover for a text of its own: one connection to the
/// agent's Unix socket, `$XDG_RUNTIME_DIR/translation-host/desktop-agent`,
/// per popover.
///
/// The caller sends one frame (a 4-byte big-endian length, then JSON: the
/// options of `run` and the text) and keeps the connection open; the agent
/// answers with one frame when the popover has closed: `run`'s exit status,
/// its replacement (stdout) and its stderr, as `PopoverProcess` would have
/// read them from a process. The caller closing the connection earlier
/// closes the popover. The agent takes only a text (`--text`), never the
/// selection: what a caller gets back is what the person chose for the text
/// it gave, and the agent pastes nothing. It answers `busy` (and shows
/// nothing) while a popover of its own is on the screen; the caller then
/// starts a popover process of its own.
package enum DesktopAgentChannel {
  /// What the caller asks.
  package struct Request: Codable, Equatable, Sendable {
    /// The options of `run` (`--desktop`, `--replace`, `--provider=…`, …); never `--text` or `--selection`.
    package var arguments: [String]
    /// The text, exactly (no line break is added or taken off).
    package var text: String

    package init(arguments: [String], text: String) {
      self.arguments = arguments
      self.text = text
    }
  }

  /// What the agent answers.
  package struct Reply: Codable, Equatable, Sendable {
    /// `run`'s exit status, as its `--help` documents it; nil with `busy`.
    package var status: Int32?
    /// What `run` wrote to stdout: the replacement, exactly.
    package var replacement: String
    /// What `run` wrote to stderr (its `Error:` line last).
    package var stderr: String
    /// The agent was showing a popover already, and showed nothing.
    package var busy: Bool

    package init(status: Int32?, replacement: String, stderr: String, busy: Bool) {
      self.status = status
      self.replacement = replacement
      self.stderr = stderr
      self.busy = busy
    }
  }

  /// The socket's name in the service's runtime folder (`ServiceLocation.folder`).
  package static let socketName = "desktop-agent"
  /// The largest frame either side reads: a text of `run`'s 4 MiB, a
  /// replacement of `PopoverProcess`'s 16 MiB, escaped in JSON.
  package static let maximumFrameBytes = 40 << 20

  /// The agent's socket for `environment`, or nil without an absolute `XDG_RUNTIME_DIR`.
  package static func socketPath(environment: [String: String]) -> String? {
    ServiceLocation.standard(environment: environment).map { $0.folder + "/" + socketName }
  }

  /// `value` as one frame.
  package static func frame(_ value: some Encodable) throws -> [UInt8] {
    let body = Array(try JSONEncoder().encode(value))
    let count = UInt32(body.count)
    return [UInt8(count >> 24), UInt8((count >> 16) & 0xff), UInt8((count >> 8) & 0xff), UInt8(count & 0xff)] + body
  }

  /// Reads one frame from `fd` and decodes it; nil when the peer closed the connection before a whole frame.
  /// - Throws: `Errno` from reading, or a decoding error for a frame that is not a `Value`, or too large.
  package static func readFrame<Value: Decodable>(_: Value.Type, from fd: FileDescriptor) throws -> Value? {
    guard let header = try readExactly(4, from: fd) else { return nil }
    let count = header.reduce(0) { $0 << 8 | Int($1) }
    guard count <= maximumFrameBytes else { throw Errno.invalidArgument }
    guard let body = try readExactly(count, from: fd) else { return nil }
    return try JSONDecoder().decode(Value.self, from: Data(body))
  }

  private static func readExactly(_ count: Int, from fd: FileDescriptor) throws(Errno) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      var chunk = [UInt8](repeating: 0, count: min(count - bytes.count, 64 << 10))
      let read = try Syscalls.read(fd, into: &chunk)
      if read == 0 { return nil }
      bytes += chunk[0..<read]
    }
    return bytes
  }
}

import FoundationEssentials
import Glibc
import System

/// sway's IPC (the i3 protocol, on the socket `SWAYSOCK` names): which
/// window has the keyboard focus, and which process shows it. On Wayland a
/// client cannot learn that from the protocol, so this is how the popover
/// makes sure the window a Replace types into is the one the text was
/// selected in. Every failure (no sway, a socket that does not answer
/// within `timeout`, a reply that does not parse) is nil: the caller then
/// falls back to the clipboard.
struct SwayIPC {
  /// A window of sway's tree.
  struct Window: Equatable, Sendable {
    /// sway's container id, stable while the window exists.
    var id: Int
    /// The process that shows it (nil for none, as sway reports).
    var pid: Int32?
    /// Its Wayland app id (nil for an X11 window under XWayland).
    var appID: String?
  }

  static let magic = Array("i3-ipc".utf8)
  static let getTree: UInt32 = 4
  static let getOutputs: UInt32 = 3
  /// The largest reply read: a tree of a few hundred windows is some 100 KiB.
  static let maximumReply = 16 << 20
  static let timeout = Duration.seconds(1)

  let socketPath: String

  /// sway's IPC in `environment`, or nil when this is not a sway session.
  init?(environment: [String: String]) {
    guard let path = environment["SWAYSOCK"], path.hasPrefix("/") else { return nil }
    socketPath = path
  }

  /// The window with the keyboard focus, or nil when none has it or sway does not answer.
  func focusedWindow() -> Window? {
    guard let reply = try? request(Self.getTree, payload: ""),
      let tree = try? JSONDecoder().decode(Node.self, from: Data(reply))
    else { return nil }
    return tree.focusedNode().map { Window(id: $0.id, pid: $0.pid.flatMap { $0 > 0 ? $0 : nil }, appID: $0.appID) }
  }

  /// Where the focused window is on the screen: its frame, and its
  /// content (the frame less sway's border and title bar), in layout pixels.
  func focusedFrame() -> (frame: ScreenRect, content: ScreenRect)? {
    guard let reply = try? request(Self.getTree, payload: ""),
      let tree = try? JSONDecoder().decode(Node.self, from: Data(reply)),
      let node = tree.focusedNode(), let rect = node.rect
    else { return nil }
    let frame = ScreenRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    guard let inner = node.windowRect else { return (frame, frame) }
    return (frame, ScreenRect(x: rect.x + inner.x, y: rect.y + inner.y, width: inner.width, height: inner.height))
  }

  /// The active outputs: their names (`HEADLESS-1`) and where they are in the layout, in logical pixels.
  func outputs() -> [(name: String, rect: ScreenRect)] {
    guard let reply = try? request(Self.getOutputs, payload: ""),
      let outputs = try? JSONDecoder().decode([Output].self, from: Data(reply))
    else { return [] }
    return outputs.filter { $0.active != false }.map {
      ($0.name, ScreenRect(x: $0.rect.x, y: $0.rect.y, width: $0.rect.width, height: $0.rect.height))
    }
  }

  /// Sends one message and reads its reply's payload.
  private func request(_ type: UInt32, payload: String) throws(Errno) -> [UInt8] {
    let fd = try UnixSocket.connect(to: socketPath)
    defer { Syscalls.close(fd) }
    let body = Array(payload.utf8)
    var message = Self.magic
    withUnsafeBytes(of: UInt32(body.count).littleEndian) { message += $0 }
    withUnsafeBytes(of: type.littleEndian) { message += $0 }
    try Syscalls.writeAll(fd, message + body)
    let header = try read(fd, count: Self.magic.count + 8)
    guard Array(header.prefix(Self.magic.count)) == Self.magic else { throw Errno(rawValue: EPROTO) }
    let length = header[6..<10].reversed().reduce(0) { $0 << 8 | Int($1) }
    guard length <= Self.maximumReply else { throw Errno(rawValue: EMSGSIZE) }
    return try read(fd, count: length)
  }

  /// Exactly `count` bytes, each wait for them no longer than `timeout`.
  private func read(_ fd: FileDescriptor, count: Int) throws(Errno) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    var chunk = [UInt8](repeating: 0, count: min(max(count, 1), 65536))
    while bytes.count < count {
      guard try Syscalls.waitReadable(fd, timeout: Self.timeout) else { throw Errno(rawValue: ETIMEDOUT) }
      if chunk.count > count - bytes.count { chunk = [UInt8](repeating: 0, count: count - bytes.count) }
      let read = try Syscalls.read(fd, into: &chunk)
      guard read > 0 else { throw Errno(rawValue: ECONNRESET) }
      bytes += chunk[..<read]
    }
    return bytes
  }

  /// A rectangle of sway's replies.
  private struct Rect: Decodable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
  }

  /// The part of an output of `get_outputs` that is read.
  private struct Output: Decodable {
    var name: String
    var active: Bool?
    var rect: Rect
  }

  /// The part of a node of `get_tree` that is read.
  private struct Node: Decodable {
    var id: Int
    var pid: Int32?
    var appID: String?
    var focused: Bool?
    var rect: Rect?
    var windowRect: Rect?
    var nodes: [Node]?
    var floatingNodes: [Node]?

    private enum CodingKeys: String, CodingKey {
      case id, pid, focused, nodes, rect
      case appID = "app_id"
      case windowRect = "window_rect"
      case floatingNodes = "floating_nodes"
    }

    func focusedNode() -> Node? {
      if focused == true { return self }
      for child in (nodes ?? []) + (floatingNodes ?? []) {
        if let found = child.focusedNode() { return found }
      }
      return nil
    }
  }
}

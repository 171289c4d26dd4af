import Glibc
import System

/// A minimal HTTP/1.1 client for one server on 127.0.0.1: one kept-alive TCP
/// connection with Nagle off, `GET` requests, bodies sized by
/// `Content-Length`. The cheapest client an app could put in front of
/// Apertium-APY, so the baseline is not slowed by its client.
final class LoopbackHTTP {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let port: UInt16
  private var fd: Int32 = -1
  private var buffer: [UInt8] = []

  init(port: UInt16) { self.port = port }

  deinit { disconnect() }

  /// The body of `GET path`, if the server answers 200.
  func get(_ path: String) throws -> [UInt8] {
    if fd < 0 { try connect() }
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: keep-alive\r\n\r\n"
    do {
      try Syscalls.writeAll(FileDescriptor(rawValue: fd), request)
      return try readResponse()
    } catch {
      disconnect()
      throw error
    }
  }

  /// `text` escaped for a query string.
  static func escaped(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        out.unicodeScalars.append(contentsOf: ["%", digits[Int(byte >> 4)], digits[Int(byte & 15)]])
      }
    }
    return out
  }

  func disconnect() {
    if fd >= 0 { Syscalls.close(FileDescriptor(rawValue: fd)) }
    fd = -1
    buffer = []
  }

  private func connect() throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Errno.current }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      let error = Errno.current
      disconnect()
      throw error
    }
    var on: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  private func readResponse() throws -> [UInt8] {
    let terminator: [UInt8] = Array("\r\n\r\n".utf8)
    var headerEnd: Int?
    while headerEnd == nil {
      headerEnd = buffer.indices.dropLast(3).first { buffer[$0..<$0 + 4].elementsEqual(terminator) }
      if headerEnd == nil { try receiveMore() }
    }
    let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self).lowercased()
    guard head.hasPrefix("http/1.1 200") else { throw Failure(description: "the server answered \(head.prefix(40))") }
    guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
      let length = Int(line.dropFirst("content-length:".count).trimmingPrefix(" "))
    else { throw Failure(description: "a response without Content-Length") }
    let bodyStart = headerEnd! + 4
    while buffer.count < bodyStart + length { try receiveMore() }
    let body = Array(buffer[bodyStart..<bodyStart + length])
    buffer.removeFirst(bodyStart + length)
    return body
  }

  private func receiveMore() throws {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    let count = try Syscalls.read(FileDescriptor(rawValue: fd), into: &chunk)
    guard count > 0 else { throw Failure(description: "the server closed the connection") }
    buffer += chunk[..<count]
  }
}

import FoundationEssentials
import System

/// A minimal HTTP/1.1 GET client over a plain TCP socket, enough for an
/// Apertium-APY server: `http://` only (APY serves plain HTTP), a deadline on
/// connecting and on every read, `Content-Length` and chunked bodies.
struct HTTPClient {
  var endpoint: String
  /// Seconds, clamped to 1…600.
  var timeout: Double

  init(endpoint: String, timeout: Double) {
    self.endpoint = endpoint
    self.timeout = min(max(timeout, 1), 600)
  }

  private var limit: Duration { .seconds(timeout) }

  /// The body of `GET <endpoint><path>`.
  /// - Throws: `APYError` naming the endpoint and what went wrong.
  func get(_ path: String) throws(APYError) -> (status: Int, body: [UInt8]) {
    let (host, port) = try parse(endpoint)
    let fd: FileDescriptor
    do throws(TCPSocket.ConnectError) { fd = try TCPSocket.connect(host: host, port: port, timeout: limit) } catch {
      switch error {
      case .unresolved(let reason): throw .unreachable(endpoint, reason: "cannot resolve '\(host)': \(reason)")
      case .failed(let failure): throw .unreachable(endpoint, reason: failure.description)
      case .timedOut: throw .timedOut(endpoint, seconds: timeout)
      }
    }
    defer { Syscalls.close(fd) }
    let request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    do throws(Errno) { try Syscalls.writeAll(fd, request) } catch {
      throw .unreachable(endpoint, reason: error.description)
    }
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      guard (try? Syscalls.waitReadable(fd, timeout: limit)) == true else {
        throw .timedOut(endpoint, seconds: timeout)
      }
      guard let count = try? Syscalls.read(fd, into: &chunk), count > 0 else { break }
      response += chunk[0..<count]
      guard response.count < 64 << 20 else { throw .malformed(endpoint, reason: "the answer is larger than 64 MiB") }
    }
    return try Self.parseResponse(response, endpoint: endpoint)
  }

  private func parse(_ endpoint: String) throws(APYError) -> (String, String) {
    guard endpoint.hasPrefix("http://") else { throw .badEndpoint(endpoint, reason: "only http:// endpoints are supported") }
    let authority = endpoint.dropFirst(7).prefix { $0 != "/" }
    guard !authority.isEmpty, !authority.contains("@") else {
      throw .badEndpoint(endpoint, reason: "no host, or user information")
    }
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      let host = String(authority[authority.index(after: authority.startIndex)..<close])
      let rest = authority[authority.index(after: close)...]
      return (host, rest.hasPrefix(":") ? String(rest.dropFirst()) : "80")
    }
    let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty else {
      throw .badEndpoint(endpoint, reason: "no host or no port")
    }
    guard endpoint.dropFirst(7).drop(while: { $0 != "/" }).allSatisfy({ $0 == "/" }) else {
      throw .badEndpoint(endpoint, reason: "a path after the host is not supported")
    }
    return (String(parts[0]), parts.count == 2 ? String(parts[1]) : "80")
  }

  static func parseResponse(_ response: [UInt8], endpoint: String) throws(APYError) -> (status: Int, body: [UInt8]) {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let headerEnd = response.indices.first(where: { response[$0...].starts(with: separator) }) else {
      throw .malformed(endpoint, reason: "no HTTP header")
    }
    let header = String(decoding: response[..<headerEnd], as: UTF8.self).lowercased()
    let statusLine = header.split(separator: "\r\n").first ?? ""
    let fields = statusLine.split(separator: " ")
    guard fields.count >= 2, fields[0].hasPrefix("http/1."), let status = Int(fields[1]) else {
      throw .malformed(endpoint, reason: "not an HTTP response")
    }
    var body = Array(response[(headerEnd + 4)...])
    if header.contains("transfer-encoding: chunked") { body = try dechunk(body, endpoint: endpoint) }
    return (status, body)
  }

  private static func dechunk(_ bytes: [UInt8], endpoint: String) throws(APYError) -> [UInt8] {
    var body: [UInt8] = []
    var index = 0
    while index < bytes.count {
      guard let lineEnd = bytes[index...].firstIndex(of: 13),
        let sizeField = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first,
        let size = Int(sizeField.trimmingCharacters(), radix: 16), size >= 0
      else { throw .malformed(endpoint, reason: "bad chunk") }
      if size == 0 { break }
      let start = lineEnd + 2
      guard start <= bytes.count, size <= bytes.count - start else { throw .malformed(endpoint, reason: "truncated chunk") }
      body += bytes[start..<start + size]
      index = start + size + 2
    }
    return body
  }
}

extension Substring {
  /// Without surrounding spaces and tabs.
  fileprivate func trimmingCharacters() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}

/// Why the APY server could not be used; each case names the endpoint.
enum APYError: Error, CustomStringConvertible {
  case badEndpoint(String, reason: String)
  case unreachable(String, reason: String)
  case timedOut(String, seconds: Double)
  case malformed(String, reason: String)
  case server(String, status: Int, message: String)

  var description: String {
    switch self {
    case .badEndpoint(let endpoint, let reason):
      "the endpoint '\(endpoint)' is not usable: \(reason); set it with 'translation-host config ApertiumAPY endpoint http://host:port'"
    case .unreachable(let endpoint, let reason):
      "cannot reach the Apertium-APY server at \(endpoint): \(reason); start it, or point 'endpoint' at one"
    case .timedOut(let endpoint, let seconds):
      "the Apertium-APY server at \(endpoint) did not answer within \(Int(seconds)) s"
    case .malformed(let endpoint, let reason):
      "the Apertium-APY server at \(endpoint) answered something unexpected: \(reason)"
    case .server(let endpoint, let status, let message):
      "the Apertium-APY server at \(endpoint) answered \(status): \(message)"
    }
  }
}

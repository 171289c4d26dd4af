import System

/// What Swift's backtracer printed in a provider's log when it crashed,
/// read line by line as the log is forwarded: the runtime's fatal-error
/// message and the frames of the crashed thread, of which the host names the
/// first in the provider's own code next to the signal.
package struct CrashReport: Sendable, Equatable {
  /// One frame of the crashed thread.
  package struct Frame: Sendable, Equatable {
    /// The function, as the backtracer wrote it (`WebGlossaryModel.load(_:) + 52`).
    package var symbol: String
    /// The image's file name (`libWebGlossary.so`).
    package var image: String
    /// `file:line:column`, when the image has debug information.
    package var location: String?

    package init(symbol: String, image: String, location: String?) {
      self.symbol = symbol
      self.image = image
      self.location = location
    }
  }

  /// The image whose frames are the provider's own code (its CFBundleExecutable).
  package var providerImage: String
  /// The runtime's message (`Fatal error: …`), if it printed one.
  package private(set) var fatalError: String?
  /// The frames of the crashed thread, top first.
  package private(set) var frames: [Frame] = []
  private var inCrashedThread = false

  package init(providerImage: String) { self.providerImage = providerImage }

  /// Reads one line of the log (without its line feed).
  package mutating func read(_ line: String) {
    if fatalError == nil, let range = line.firstRange(of: "Fatal error: ") {
      fatalError = String(line[range.lowerBound...]).trimmingWhitespace()
      return
    }
    let trimmed = line.trimmingWhitespace()
    if trimmed.hasPrefix("Thread ") {
      inCrashedThread = trimmed.hasSuffix(" crashed:") && frames.isEmpty
      return
    }
    guard inCrashedThread, let frame = Self.frame(trimmed) else { return }
    frames.append(frame)
  }

  /// The first frames (at most `limit`) in the provider's own image.
  package func providerFrames(limit: Int = 3) -> [Frame] {
    Array(frames.filter { $0.image == providerImage }.prefix(limit))
  }

  /// One line for the host's report: the fatal error and where the provider
  /// was; nil when the log had neither.
  package var summary: String? {
    var parts: [String] = []
    if let fatalError { parts.append(fatalError) }
    let own = providerFrames()
    if !own.isEmpty {
      parts.append(
        "in the provider's code: "
          + own.map { $0.symbol + ($0.location.map { " at \($0)" } ?? "") }.joined(separator: ", called from "))
    } else if let top = frames.first(where: { !$0.symbol.hasPrefix("_assertionFailure") }) {
      parts.append("in \(top.symbol) (\(top.image)); no frame of the provider's code")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// `12 [ra] [thunk] 0x00007f… symbol + 52 in libX.so at /path/file.swift:97:20`.
  static func frame(_ line: String) -> Frame? {
    var rest = Substring(line)
    guard let first = rest.first, first.isNumber else { return nil }
    rest = rest.drop(while: \.isNumber).drop(while: { $0 == " " })
    while rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { return nil }
      rest = rest[rest.index(after: close)...].drop(while: { $0 == " " })
    }
    guard rest.hasPrefix("0x") else { return nil }
    rest = rest.drop(while: { $0 != " " }).drop(while: { $0 == " " })
    var location: String?
    if let atRange = rest.ranges(of: " at ").last {
      location = String(rest[atRange.upperBound...])
      rest = rest[..<atRange.lowerBound]
    }
    guard let inRange = rest.ranges(of: " in ").last else { return nil }
    let symbol = String(rest[..<inRange.lowerBound])
    let image = rest[inRange.upperBound...]
    guard !symbol.isEmpty, !image.isEmpty else { return nil }
    return Frame(symbol: symbol, image: String(image), location: location)
  }
}

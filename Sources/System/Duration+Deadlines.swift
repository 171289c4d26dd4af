/// Spans and deadlines as the host reads them from users and clients.
///
/// Spans come from users and clients (`--idle-timeout 1e300`, a deadline
/// longer than the machine has been up), and `Duration.seconds(_:)` traps on
/// huge or non-finite values; so every span from outside is made with
/// `seconds(saturating:)`, and every deadline is at most `forever` away: the
/// worst case is a deadline that never comes, or one that has already passed.
extension Duration {
  /// A hundred years: the longest span the host deals in, and a deadline that never comes.
  package static let forever = Duration.seconds(100 * 365 * 86_400)

  /// `seconds` as a span: NaN and negative values are zero, values beyond `forever` are `forever`.
  package static func seconds(saturating seconds: Double) -> Duration {
    guard seconds > 0 else { return .zero }  // false for NaN too
    guard seconds < foreverInSeconds else { return .forever }
    // From its two components: `.seconds(_: Double)` checks its range in
    // 128-bit arithmetic, some 300 instructions (a deadline read from every request).
    let whole = seconds.rounded(.towardZero)
    return Duration(secondsComponent: Int64(whole), attosecondsComponent: Int64((seconds - whole) * 1e18))
  }

  /// `forever` in seconds.
  private static let foreverInSeconds = Duration.forever.inSeconds

  /// The span in seconds, as people read and type it.
  package var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The span in whole milliseconds, rounded up, for `poll`: 0 for none, at most `Int32.max`.
  package var pollMilliseconds: Int32 {
    guard self > .zero else { return 0 }
    let (seconds, attoseconds) = components
    let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
    guard !milliseconds.overflow else { return .max }
    let total = milliseconds.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: total)
  }

  /// The span in seconds as a person types it: "2", "0.25".
  package var secondsText: String {
    let seconds = inSeconds
    return seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
  }

  /// The span as a person reads it in a message: "2 s", "0.25 s".
  package var readable: String { secondsText + " s" }
}

extension ContinuousClock.Instant {
  /// The instant `span` from now, never more than `Duration.forever` away.
  package static func after(_ span: Duration) -> ContinuousClock.Instant {
    .now.advanced(by: Swift.min(span, .forever))
  }

  /// The time left until this instant; zero once it has passed.
  package var remaining: Duration { Swift.max(.zero, ContinuousClock.now.duration(to: self)) }

  /// Whether this instant has come.
  package var hasPassed: Bool { self <= .now }
}

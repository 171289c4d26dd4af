import Foundation

/// The one thread the desktop popover runs on: GTK belongs to the thread
/// that initialised it, so every presentation of the process runs here, one
/// after the other. The thread lives as long as the process (a runner's
/// death signal follows the thread that started it, and this one does not end).
final class DesktopThread: @unchecked Sendable {
  static let shared = DesktopThread()

  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []

  private init() {
    let thread = Thread { [unowned self] in serve() }
    thread.name = "translationPresentation (desktop)"
    thread.start()
  }

  /// Runs `work` on the thread, after the work given before it.
  func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
      condition.lock()
      jobs.append { continuation.resume(with: Result { try work() }) }
      condition.signal()
      condition.unlock()
    }
  }

  private func serve() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job()
    }
  }
}

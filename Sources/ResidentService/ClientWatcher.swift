import FoundationEssentials
import Service
import System

/// Watches one connection's client while a runner works for it, so that a
/// client that goes away (its process ended, or the library's `cancel()`
/// shut the connection down) stops its runner at once, instead of leaving
/// it busy until the request's deadline (up to `maximumTimeout`).
///
/// A thread per connection, started by the first request that uses a
/// runner, waits for the client to hang up: `POLLHUP`, which the kernel
/// reports only once the client can neither send nor receive, so a client
/// that merely shuts down its sending side still gets its answer. Then it
/// interrupts the runner being watched, if any (`RunnerClient.interruption`
/// kills its process group); the request fails, and the connection closes
/// the runner rather than give it back to the pool.
final class ClientWatcher: @unchecked Sendable {
  private let fd: FileDescriptor
  private let condition = Condition()
  /// The interruption of the runner working for the client now.
  private var watched: (@Sendable () -> Void)?
  private var isStarted = false
  private var isRunning = false
  private var isStopped = false
  /// Whether the client hung up; then whether a runner was interrupted for it.
  private var clientLeft = false
  private var interruptedRunner = false

  /// Watches `fd`, a connection's socket, which must stay open until `stop()` returns.
  init(client fd: FileDescriptor) { self.fd = fd }

  /// Whether a runner was interrupted because the client left; such a
  /// runner is closed, never reused.
  var hasInterrupted: Bool {
    condition.lock()
    defer { condition.unlock() }
    return interruptedRunner
  }

  /// Runs `body` while the runner whose `interruption` is given works; the
  /// runner is interrupted if the client leaves meanwhile (or has left).
  func watching<T>(_ interruption: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
    condition.lock()
    if !isStarted {
      (isStarted, isRunning) = (true, true)
      DetachedThread.start(name: "client-watcher") { [self] in watch() }
    }
    watched = interruption
    if clientLeft { interrupt() }
    condition.unlock()
    defer {
      condition.lock()
      watched = nil
      condition.unlock()
    }
    return try body()
  }

  /// Ends the watch: wakes the thread (by shutting the socket down) and
  /// waits for it, so that it never polls the descriptor after it is closed.
  func stop() {
    condition.lock()
    defer { condition.unlock() }
    isStopped = true
    guard isRunning else { return }
    UnixSocket.shutdown(fd)
    while isRunning { condition.wait() }
  }

  private func watch() {
    // Nothing asked for: POLLHUP and POLLERR are reported without asking.
    let hungUp = (try? Syscalls.poll([(fd, [])])) != nil
    condition.lock()
    if hungUp && !isStopped {
      clientLeft = true
      interrupt()
    }
    isRunning = false
    condition.broadcast()
    condition.unlock()
  }

  /// Interrupts the watched runner; the lock is held.
  private func interrupt() {
    guard let watched else { return }
    watched()
    interruptedRunner = true
  }
}

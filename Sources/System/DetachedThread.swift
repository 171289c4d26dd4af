import Glibc

/// A thread of its own (pthread's), for code that must not load Foundation
/// for its `Thread`: the service's and the CLI's long-lived threads. Unlike
/// a Dispatch worker, it ends only when `body` returns, which matters to a
/// process it starts: a child's parent-death signal follows the thread that
/// started it.
package enum DetachedThread {
  /// Starts `body` on a new detached thread named `name` (as `top -H` and
  /// `/proc/<pid>/task/<tid>/comm` show it; at most 15 bytes are kept), with
  /// `stackBytes` of stack, or glibc's default (from the stack limit).
  /// A process that cannot start a thread (out of memory, or of threads
  /// under `RLIMIT_NPROC`) stops here, as with Foundation's `Thread`.
  package static func start(name: String, stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackBytes {
      let set = pthread_attr_setstacksize(&attributes, stackBytes)
      precondition(set == 0, "a stack of \(stackBytes) bytes for the thread '\(name)': \(Errno(rawValue: set))")
    }
    var thread = pthread_t()
    let result = pthread_create(
      &thread, &attributes,
      { context in
        let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
        work.nameThisThread()
        work.body()
        return nil
      }, context)
    // Only a process out of memory or threads fails here, and nothing would be served without the thread.
    precondition(result == 0, "cannot start the thread '\(name)': \(Errno(rawValue: result))")
  }

  private final class Work {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }

    /// Linux's thread name, written where the kernel keeps it.
    func nameThisThread() {
      let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { return }
      defer { Glibc.close(fd) }
      let bytes = Array(name.utf8.prefix(15))
      _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }
  }
}

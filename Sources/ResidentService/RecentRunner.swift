import Service
import System

/// The runner a connection's thread gave back to the pool last, when its
/// client was working alone (`TranslatingRunners.checkin`'s `alone`), kept
/// so that the next checkout of that runner needs no `poll` of its own.
///
/// The pool asks the kernel whether an idle runner spoke out of turn before
/// it hands it out (the trust check: such a runner must not answer the next
/// request). The connection's wait for its client's next request already
/// makes a `poll`; it looks at this runner's socket in it too, after the
/// client's, and when the request arrived with the runner's socket quiet and
/// nobody took the runner since (`RunnerClient.checkouts`), that answers the
/// same question. Used by its connection's thread only: the checkout and the
/// check-in of a batch's runner are made by the thread that leads the batch,
/// whose request's runners (`PoolRunners`) carry it.
final class RecentRunner: @unchecked Sendable {
  /// The runner, and its `checkouts` when it was given back.
  private(set) var runner: RunnerClient?
  private var checkouts = 0
  /// Whether the wait for the request being served found `runner`'s socket
  /// with nothing to read after the request arrived; taken by one checkout.
  private var foundQuiet = false

  /// The socket to look at beside the client's, if a runner is kept.
  var socket: FileDescriptor? { runner?.socket }

  /// What the wait for a request found: `quiet` when the request arrived and
  /// the runner's socket had nothing to read; a runner whose socket was
  /// readable (it spoke, ended, or another client's answer came) is forgotten.
  func waited(requestArrived: Bool, socketReadable: Bool) {
    foundQuiet = requestArrived && !socketReadable
    if socketReadable { runner = nil }
  }

  /// Forgets any finding: the next request was not waited for with a `poll`.
  func unknown() { foundQuiet = false }

  /// The runner and its `checkouts` for `RunnerPool.checkout`'s `quiet`, once.
  func takeQuiet() -> (runner: RunnerClient, checkouts: Int)? {
    defer { foundQuiet = false }
    guard foundQuiet, let runner else { return nil }
    return (runner, checkouts)
  }

  /// A runner given back, handed out `checkouts` times then: kept when
  /// `keep`, else forgotten if it was this one.
  func gaveBack(_ given: RunnerClient, checkouts: Int, keep: Bool) {
    if keep {
      (runner, self.checkouts) = (given, checkouts)
    } else if runner === given {
      runner = nil
    }
    foundQuiet = false
  }
}

import Service
import System

/// The runners a connection's thread gave back to the pool last (two at
/// most: a client that alternates two providers), each when its client was
/// working alone (`TranslatingRunners.checkin`'s `alone`), kept so that the
/// next checkout of one needs no `poll` of its own.
///
/// The pool asks the kernel whether an idle runner spoke out of turn before
/// it hands it out (the trust check: such a runner must not answer the next
/// request). The connection's wait for its client's next request already
/// makes a `poll`; it looks at these runners' sockets in it too, after the
/// client's, and when the request arrived with a runner's socket quiet and
/// nobody took the runner since (`RunnerClient.checkouts`), that answers the
/// same question. Used by its connection's thread only: the checkout and the
/// check-in of a batch's runner are made by the thread that leads the batch,
/// whose request's runners (`PoolRunners`) carry it.
final class RecentRunner: @unchecked Sendable {
  private struct Entry {
    let runner: RunnerClient
    let key: RunnerPool.Key
    /// Its `checkouts` when it was given back.
    let checkouts: Int
  }

  private static let limit = 2
  /// The latest first.
  private var entries: [Entry] = []
  /// Which of `entries` (bit `i`: `entries[i]`) the wait for the request
  /// being served found with nothing to read after the request arrived;
  /// each taken by one checkout. (Bits, not a flag in each entry: setting
  /// those took a loop over the array with a uniqueness check, twice a request.)
  private var foundQuiet: UInt64 = 0

  /// How many runners are kept, whose sockets to look at beside the client's.
  var count: Int { entries.count }

  /// The socket of the `index`th runner kept.
  func socket(_ index: Int) -> FileDescriptor { entries[index].runner.socket }

  /// What the wait for a request found: `readable`, bit `i` for the `i`th
  /// runner's socket. A quiet one is trusted by the next checkout when the
  /// request `arrived`; a readable one (it spoke, ended, or another client's
  /// answer came) is forgotten.
  func waited(requestArrived arrived: Bool, readable: UInt64) {
    let all: UInt64 = (1 << UInt64(entries.count)) - 1
    foundQuiet = arrived ? ~readable & all : 0
    if readable & all != 0 {
      entries = entries.indices.filter { readable & (1 << UInt64($0)) == 0 }.map { entries[$0] }
      foundQuiet = arrived ? (1 << UInt64(entries.count)) - 1 : 0  // those left were all quiet
    }
  }

  /// Forgets any finding: the next request was not waited for with a `poll`.
  func unknown() { foundQuiet = 0 }

  /// The runner kept for `key` and its `checkouts`, for `RunnerPool.checkout`'s
  /// `quiet`, when its socket was found quiet; once.
  func takeQuiet(for key: RunnerPool.Key) -> (runner: RunnerClient, checkouts: Int)? {
    guard let index = entries.firstIndex(where: { $0.key == key }), foundQuiet & (1 << UInt64(index)) != 0 else {
      return nil
    }
    foundQuiet &= ~(1 << UInt64(index))
    return (entries[index].runner, entries[index].checkouts)
  }

  /// `runner` given back for `key`, handed out `checkouts` times then: kept
  /// when `keep` (in place of one kept for the same key), else forgotten.
  func gaveBack(_ runner: RunnerClient, key: RunnerPool.Key, checkouts: Int, keep: Bool) {
    // Findings are for the request being served: by the next, the wait has made new ones.
    foundQuiet = 0
    // A lone client's runner comes back to the head of the list: updated in place.
    if keep, !entries.isEmpty, entries[0].runner === runner, entries[0].key == key {
      entries[0] = Entry(runner: runner, key: key, checkouts: checkouts)
      return
    }
    if let index = entries.firstIndex(where: { $0.runner === runner || $0.key == key }) { entries.remove(at: index) }
    guard keep else { return }
    if entries.count >= Self.limit { entries.removeLast() }
    entries.insert(Entry(runner: runner, key: key, checkouts: checkouts), at: 0)
  }
}

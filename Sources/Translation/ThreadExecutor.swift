import Dispatch
import Foundation
import Synchronization

/// A serial executor with a thread of its own, which lives as long as the
/// executor does.
///
/// The direct backend needs both halves of that. Its runner calls block (a
/// socket read with a deadline of seconds), which must not hold one of the
/// cooperative pool's few threads. And the runner asks the kernel for
/// `PR_SET_PDEATHSIG`, which fires when the *thread* that started it exits,
/// not the process: dispatch retires idle worker threads, so a runner
/// started from a dispatch queue is killed some seconds later, in the
/// middle of a session. The thread that starts a runner must outlive it.
final class ThreadExecutor: SerialExecutor {
  private let jobs = Jobs()

  init(name: String) {
    let thread = Thread { [jobs] in jobs.run() }
    thread.name = name
    thread.start()
  }

  /// The thread ends after the jobs already enqueued (such as the backend's
  /// isolated deinit, which closes its runner).
  deinit { jobs.finish() }

  func enqueue(_ job: consuming ExecutorJob) {
    jobs.add(UnownedJob(job), on: asUnownedSerialExecutor())
  }

  /// The jobs waiting for the thread, in order.
  private final class Jobs: Sendable {
    private let waiting = Mutex<(jobs: [(UnownedJob, UnownedSerialExecutor)], finished: Bool)>(([], false))
    private let available = DispatchSemaphore(value: 0)

    func add(_ job: UnownedJob, on executor: UnownedSerialExecutor) {
      waiting.withLock { $0.jobs.append((job, executor)) }
      available.signal()
    }

    func finish() {
      waiting.withLock { $0.finished = true }
      available.signal()
    }

    /// The thread's body: runs jobs until finished and drained.
    func run() {
      while true {
        available.wait()
        let next = waiting.withLock { state -> (UnownedJob, UnownedSerialExecutor)?? in
          if !state.jobs.isEmpty { return state.jobs.removeFirst() }
          return state.finished ? .some(nil) : nil
        }
        switch next {
        case .some(.some(let (job, executor))): job.runSynchronously(on: executor)
        case .some(.none): return
        case .none: continue
        }
      }
    }
  }
}

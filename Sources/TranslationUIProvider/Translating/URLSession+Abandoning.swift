import Synchronization

/// URLSession's `async` calls, without cancelling the transfer when the
/// calling task is cancelled.
///
/// swift-corelibs-foundation's `URLSessionTask.cancel()` races the task's
/// completion: when the answer arrives while `cancel()` runs, its own
/// failure report looks the task up after completion removed it and stops
/// the process ("TaskRegistry.swift: Trying to access a behaviour for a task
/// that in not in the registry"), or the awaiting call never returns. A
/// provider meets that race whenever a scene closes while its `.task`
/// awaits an answer (SwiftUI cancels the task then). These methods shadow
/// Foundation's: a cancelled caller gets `URLError(.cancelled)` at once,
/// and the transfer runs to its end (or its timeout) with its answer
/// dropped, so `cancel()` is never called.
extension URLSession {
  /// `data(for:delegate:)`, never cancelling the transfer; see the extension.
  public func data(
    for request: URLRequest, delegate: (any URLSessionTaskDelegate)? = nil
  ) async throws -> (Data, URLResponse) {
    let answer = AbandonableAnswer<(Data, URLResponse)>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        answer.await(continuation)
        let task = dataTask(with: request) { data, response, error in
          if let data, let response {
            answer.resume(with: .success((data, response)))
          } else {
            answer.resume(with: .failure(error ?? URLError(.badServerResponse)))
          }
        }
        if let delegate { task.delegate = delegate }
        task.resume()
      }
    } onCancel: {
      answer.resume(with: .failure(URLError(.cancelled)))
    }
  }

  /// `data(from:delegate:)`, never cancelling the transfer; see the extension.
  public func data(from url: URL, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (Data, URLResponse) {
    try await data(for: URLRequest(url: url), delegate: delegate)
  }

  /// `upload(for:from:delegate:)`, never cancelling the transfer; see the extension.
  public func upload(
    for request: URLRequest, from bodyData: Data, delegate: (any URLSessionTaskDelegate)? = nil
  ) async throws -> (Data, URLResponse) {
    var request = request
    request.httpBody = bodyData
    return try await data(for: request, delegate: delegate)
  }
}

/// The one answer an abandonable call gives: the transfer's, or the
/// cancellation's, whichever comes first; the other is dropped.
private final class AbandonableAnswer<Value: Sendable>: Sendable {
  private enum State {
    case waiting
    case awaiting(CheckedContinuation<Value, any Error>)
    case answered(Result<Value, any Error>)
    case done
  }

  private let state = Mutex<State>(.waiting)

  func await(_ continuation: CheckedContinuation<Value, any Error>) {
    let early: Result<Value, any Error>? = state.withLock { state in
      switch state {
      case .answered(let result):
        state = .done
        return result
      default:
        state = .awaiting(continuation)
        return nil
      }
    }
    if let early { continuation.resume(with: early) }
  }

  func resume(with result: Result<Value, any Error>) {
    let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
      switch state {
      case .waiting:
        state = .answered(result)
        return nil
      case .awaiting(let continuation):
        state = .done
        return continuation
      case .answered, .done:
        return nil
      }
    }
    continuation?.resume(with: result)
  }
}

extension TranslationSession {
  /// The responses to a batch as each becomes available, in request order,
  /// as Apple's. Nothing is translated until the sequence is iterated; the
  /// requests go to the provider a few at a time, so the first responses
  /// arrive long before the last are done.
  public struct BatchResponse: AsyncSequence, Sendable {
    public typealias Element = Response

    /// Requests per round trip to the provider: small enough to stream,
    /// large enough that a warm provider spends its time translating.
    static let chunkSize = 32

    let session: TranslationSession
    let requests: [Request]

    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(session: session, requests: requests[...])
    }

    /// Translates the next chunk whenever the responses in hand run out.
    public struct AsyncIterator: AsyncIteratorProtocol {
      let session: TranslationSession
      var requests: ArraySlice<Request>
      var ready: [Response] = []

      public mutating func next() async throws -> Response? {
        if ready.isEmpty {
          guard !requests.isEmpty else { return nil }
          let chunk = Array(requests.prefix(BatchResponse.chunkSize))
          requests = requests.dropFirst(chunk.count)
          ready = try await session.responses(to: chunk).reversed()
        }
        return ready.popLast()
      }
    }
  }
}

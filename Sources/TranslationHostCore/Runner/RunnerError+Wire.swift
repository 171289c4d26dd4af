/// `RunnerError` as it travels from the resident service to its clients
/// (inside `ServiceFailure`), beside the runner's own wire code.
extension RunnerError: WireCodable {
  package func encode(to w: inout WireWriter) {
    switch self {
    case .runnerNotFound(let searched):
      w.tag(1)
      w.strings(searched)
    case .spawnFailed(let path, let errno):
      w.tag(2)
      w.string(path)
      w.integer(errno.rawValue)
    case .deadlineExceeded(let provider, let seconds):
      w.tag(3)
      w.string(provider)
      w.double(seconds)
    case .ended(let provider, let status):
      w.tag(4)
      w.string(provider)
      switch status {
      case .exited(let code):
        w.tag(1)
        w.integer(code)
      case .signaled(let signal):
        w.tag(2)
        w.integer(signal)
      }
    case .protocolViolation(let provider, let error):
      w.tag(5)
      w.string(provider)
      // The words are what a user sees; the structure stays on the service's side.
      w.string(error.description)
    case .loadFailed(let provider, let message):
      w.tag(6)
      w.string(provider)
      w.string(message)
    case .providerFailed(let provider, let status, let message):
      w.tag(7)
      w.string(provider)
      w.integer(status?.rawValue ?? -1)
      w.string(message)
    case .invalidViewTree(let provider, let reason):
      w.tag(8)
      w.string(provider)
      w.string(reason)
    case .violation(let provider, let reason):
      w.tag(9)
      w.string(provider)
      w.string(reason)
    case .sandboxFailed(let provider, let message):
      w.tag(10)
      w.string(provider)
      w.string(message)
    case .serviceFailed(let error):
      w.tag(11)
      ServiceFailure.service(error).encode(to: &w)
    }
  }

  package init(from r: inout WireReader) throws(ProtocolError) {
    switch try r.tag() {
    case 1: self = .runnerNotFound(searched: try r.strings())
    case 2: self = .spawnFailed(try r.string(), Errno(rawValue: try r.integer()))
    case 3: self = .deadlineExceeded(provider: try r.string(), seconds: try r.double())
    case 4:
      let provider = try r.string()
      switch try r.tag() {
      case 1: self = .ended(provider: provider, .exited(try r.integer()))
      case 2: self = .ended(provider: provider, .signaled(try r.integer()))
      case let tag: throw .malformed("unknown exit status \(tag)")
      }
    case 5: self = .protocolViolation(provider: try r.string(), .reported(try r.string()))
    case 6: self = .loadFailed(provider: try r.string(), message: try r.string())
    case 7:
      let provider = try r.string()
      let status = try r.integer()
      self = .providerFailed(provider: provider, status: status < 0 ? nil : ProviderStatus(status), message: try r.string())
    case 8: self = .invalidViewTree(provider: try r.string(), try r.string())
    case 9: self = .violation(provider: try r.string(), try r.string())
    case 10: self = .sandboxFailed(provider: try r.string(), message: try r.string())
    case 11: self = .serviceFailed(try ServiceFailure(from: &r).runnerError.serviceError)
    case let tag: throw .malformed("unknown runner error \(tag)")
    }
  }
}

extension RunnerError {
  /// The service error inside `serviceFailed`, or this error's words as one.
  fileprivate var serviceError: ServiceError {
    if case .serviceFailed(let error) = self { return error }
    return .remote(.failure, description)
  }
}

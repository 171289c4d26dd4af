import RunnerProtocol

extension RunnerFailure {
  /// The failure to report for a provider that answered with `error`.
  package init(_ error: ProviderError) {
    if case .failed(let status, let message) = error {
      self.init(kind: .provider, status: status, message: message.isEmpty ? status.description : message)
    } else {
      self.init(kind: .provider, message: error.description)
    }
  }
}

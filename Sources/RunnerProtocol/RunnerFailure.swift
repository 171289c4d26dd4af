/// Why a request failed on the runner's side.
package struct RunnerFailure: Sendable, Equatable, Error, CustomStringConvertible {
  package enum Kind: String, Sendable {
    /// The provider's shared object could not be loaded or initialised.
    case load
    /// The provider answered with a failure.
    case provider
    /// The host asked for something out of order (a host bug).
    case request
    /// The sandbox could not be set up, so the provider was not loaded.
    case sandbox
    /// The provider broke the ABI's rules (finishing twice, a replacement that is not UTF-8).
    case violation
  }

  package var kind: Kind
  package var status: ProviderStatus?
  package var message: String

  package init(kind: Kind, status: ProviderStatus? = nil, message: String) {
    self.kind = kind
    self.status = status
    self.message = message
  }

  package var description: String { message }
}

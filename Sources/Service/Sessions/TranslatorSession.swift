import RunnerProtocol
import System

/// A provider that translates without a person: what `translate`,
/// `languages` and the `Translation` library's sessions need.
///
/// Opened by `ProviderLaunch.translator`: a `ServiceTranslator` through the
/// resident service, or a `RunnerClient` of a runner started here. Not
/// thread-safe: one thread at a time, except `interruption`.
package protocol TranslatorSession: AnyObject {
  /// Translates `texts` in one batch; one answer per text, in order.
  func translate(_ texts: [String], from source: String, to target: String) throws(HostError) -> [String]
  /// The provider's language pairs and their status.
  func languages() throws(HostError) -> [LanguagePairStatus]
  /// Ends the session; its runner goes (or goes back to the service's pool).
  func close()
  /// Whether the session can serve no more requests (its runner ended, or
  /// it was interrupted): open a new one.
  var hasEnded: Bool { get }
  /// Stops the request in progress at once; callable from any thread, also
  /// when nothing is in progress. The request fails and the session ends.
  /// The client library's `cancel()` calls it while another thread waits.
  var interruption: @Sendable () -> Void { get }
}

import Foundation
import Testing
import TranslationUIProvider

/// What an iOS file that imports Foundation besides the SDK uses: one
/// declaration of each name, none ambiguous.
@Suite struct OneImportTests {
  @Test func foundationNamesAreUnambiguousBesideTheSDK() throws {
    let caches = try FileManager.default.url(
      for: .cachesDirectory, in: .userDomainMask, appropriateFor: nil, create: false)
    #expect(!caches.path.isEmpty)
    #expect(!NSHomeDirectory().isEmpty)
    #expect(!FileManager.default.homeDirectoryForCurrentUser.path.isEmpty)
    #expect(!NSTemporaryDirectory().isEmpty)
    DispatchQueue(label: "one-import").sync {}
    #expect(URLSession.shared.configuration.timeoutIntervalForRequest > 0)
    // The SDK's NSLocalizedString: outside a host, Bundle.main, which has no such key.
    #expect(NSLocalizedString("Hello", comment: "a greeting") == "Hello")
  }
}

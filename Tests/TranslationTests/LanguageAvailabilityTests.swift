import Foundation
import TestSupport
import Testing
import Translation

/// `LanguageAvailability` from the pairs real providers report.
@Suite struct LanguageAvailabilityTests {
  @Test(arguments: [
    (Providers.apertium, "en", "es", LanguageAvailability.Status.installed),
    (Providers.apertium, "es", "en", .installed),
    (Providers.apertium, "en-GB", "es", .installed),
    (Providers.apertium, "en", "ca", .supported),
    (Providers.apertium, "en", "xx", .unsupported),
    (Providers.apertium, "en-US", "en-GB", .unsupported),
    (Providers.rot13, "en", "en-x-rot13", .installed),
    (Providers.rot13, "en-x-rot13", "en", .installed),
    (Providers.rot13, "en", "es", .unsupported),
    ("/nonexistent/Gone.translationprovider", "en", "es", .unsupported),
  ])
  func statusOfAPair(_ provider: String, _ source: String, _ target: String, _ expected: LanguageAvailability.Status) async {
    let availability = LanguageAvailability(provider: provider)
    #expect(await availability.status(from: .tag(source), to: .tag(target)) == expected)
  }

  @Test func supportedLanguagesKeepTheProvidersTags() async {
    let languages = await LanguageAvailability(provider: Providers.rot13).supportedLanguages
    #expect(languages == [.tag("en"), .tag("en-x-rot13")])
    #expect(languages.last != Locale.Language(identifier: "en"))
  }

  @Test func supportedLanguagesOfApertiumIncludeWhatADebianPackageWouldAdd() async {
    let languages = await LanguageAvailability(provider: Providers.apertium).supportedLanguages
    #expect(languages.contains(Locale.Language(identifier: "es")))
    #expect(languages.contains(Locale.Language(identifier: "ca")))
  }

  @Test(arguments: [
    ("The cat sat on the mat and looked out of the window.", LanguageAvailability.Status.installed),
    ("Le chat est assis sur le tapis et regarde par la fenêtre.", .supported),
  ])
  func statusForATextDetectsItsLanguage(_ text: String, _ expected: LanguageAvailability.Status) async throws {
    let availability = LanguageAvailability(provider: Providers.apertium)
    #expect(try await availability.status(for: text, to: .tag("es")) == expected)
  }

  @Test(arguments: ["Hi", "Grazie mille", "", "12345 67890 12345 67890"])
  func tooLittleTextCannotBeIdentified(_ text: String) async {
    let availability = LanguageAvailability(provider: Providers.rot13)
    let error = await #expect(throws: TranslationError.self) { try await availability.status(for: text, to: .tag("en-x-rot13")) }
    #expect(error.map { TranslationError.unableToIdentifyLanguage ~= $0 } == true)
    #expect(error?.failureReason?.contains("at least 20 characters") == true, "\(String(describing: error))")
  }

  /// `status(from:to:)` cannot say why a provider cannot be asked; an app
  /// finds the reason in a session's error.
  @Test func withoutAProviderNothingIsSupportedAndASessionSaysWhy() async throws {
    let missing = "/nonexistent/Gone.translationprovider"
    #expect(await LanguageAvailability(provider: missing).supportedLanguages.isEmpty)
    let session = TranslationSession(installedSource: .tag("en"), target: .tag("es"), provider: missing)
    let error = await #expect(throws: TranslationError.self) { try await session.prepareTranslation() }
    #expect(error.map { TranslationError.internalError ~= $0 } == true)
    #expect(error?.failureReason?.contains("Gone.translationprovider") == true, "\(String(describing: error))")
  }
}

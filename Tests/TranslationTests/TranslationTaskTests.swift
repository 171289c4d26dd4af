import Foundation
import TestSupport
import Testing

@testable import Translation

/// `TranslationSession.Configuration` and the task that turns it into
/// sessions, as SwiftUI's `translationTask(_:action:)` does.
@MainActor
@Suite struct TranslationTaskTests {
  @Test func invalidatingAConfigurationChangesItWithoutChangingItsLanguages() {
    var configuration = TranslationSession.Configuration(source: .tag("en"), target: .tag("es"))
    let original = configuration
    #expect(configuration.version == 0)
    #expect(configuration.preferredStrategy == .lowLatency)
    configuration.invalidate()
    #expect(configuration.version == 1)
    #expect(configuration != original)
    #expect(configuration.source == original.source && configuration.target == original.target)
    #expect(
      TranslationSession.Configuration(source: .tag("en"), target: .tag("es"), preferredStrategy: .highFidelity) != original)
  }

  /// The action runs with a new session at first, again for an invalidated
  /// or changed configuration, and never for a nil one; the session of an
  /// earlier run is cancelled.
  @Test func theActionRunsAgainWithANewSessionWhenTheConfigurationChanges() async throws {
    var sessions: [TranslationSession] = []
    var translations: [String] = []
    var configuration = TranslationSession.Configuration(source: .tag("en"), target: .tag("en-x-rot13"))
    let task = TranslationTask(configuration, provider: Providers.rot13) { session in
      sessions.append(session)
      translations.append((try? await session.translate("Hello").targetText) ?? "failed")
    }
    await task.value
    configuration.invalidate()
    task.configuration = configuration
    await task.value
    task.configuration = configuration  // unchanged: nothing runs
    await task.value
    task.configuration = nil
    await task.value
    #expect(translations == ["Uryyb", "Uryyb"])
    try #require(sessions.count == 2)
    #expect(sessions[0] !== sessions[1])
    // The earlier run's session was cancelled, and a nil configuration ended the last one's too.
    for session in sessions {
      let error = await #expect(throws: TranslationError.self) { _ = try await session.translate("Hello") }
      #expect(error.map { TranslationError.alreadyCancelled ~= $0 } == true, "\(String(describing: error))")
    }
  }

  /// A configuration without a source detects the language of each batch.
  @Test func aSessionWithoutASourceDetectsTheLanguage() async throws {
    var responses: [TranslationSession.Response] = []
    let task = TranslationTask(TranslationSession.Configuration(target: .tag("es")), provider: Providers.apertium) { session in
      responses = (try? await session.translations(from: [.init(sourceText: "The house is big and the garden is small.")])) ?? []
      let error = await #expect(throws: TranslationError.self) { try await session.prepareTranslation() }
      #expect(error.map { TranslationError.unableToIdentifyLanguage ~= $0 } == true)
    }
    await task.value
    #expect(responses.first?.sourceLanguage.minimalIdentifier == "en")
    #expect(responses.first?.targetText == "La casa es grande y el jardín es pequeño.")
  }
}

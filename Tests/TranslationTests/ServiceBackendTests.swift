import Foundation
import Glibc
import TestSupport
import Testing
import Translation

/// The library through a running `translation-host serve` (started here with
/// a private `XDG_RUNTIME_DIR`, stopped by its pid): the same answers as the
/// direct path, and a service that dies is no dead end (`cancel()` through
/// the service: `TranslationSessionTests`).
@Suite(.serialized) struct ServiceBackendTests {
  static let translations =
    TranslationSessionTests.rot13Cases + [
      .init(
        provider: Providers.apertium, source: "en", target: "es", text: "The cat is on the table.",
        expected: "El gato es en la mesa."),
      .init(
        provider: Providers.apertium, source: "en-GB", target: "es", text: "The house is big.", expected: "La casa es grande."),
    ]

  @Test func translationsThroughTheServiceAreThoseOfTheDirectPath() async throws {
    let service = try Providers.service()
    try service.start()
    defer { service.stop() }
    for test in Self.translations {
      let through = TranslationSession(
        installedSource: .tag(test.source), target: .tag(test.target), provider: test.provider,
        serviceEnvironment: service.environment)
      let direct = TranslationSession(installedSource: .tag(test.source), target: .tag(test.target), provider: test.provider)
      let response = try await through.translate(test.text)
      #expect(response.targetText == test.expected, "\(test.testDescription)")
      #expect(response.targetText == (try await direct.translate(test.text)).targetText, "\(test.testDescription)")
      #expect(response.sourceLanguage == .tag(test.source))
    }
    // The service did the work: its runners (Rot13, Apertium) are warm.
    #expect(service.runners().count >= 2)

    let requests = TranslationSessionTests.requests
    let through = TranslationSession(
      installedSource: .tag("en"), target: .tag("en-x-rot13"), provider: Providers.rot13, serviceEnvironment: service.environment)
    let direct = TranslationSession(installedSource: .tag("en"), target: .tag("en-x-rot13"), provider: Providers.rot13)
    let all = try await through.translations(from: requests)
    var streamed: [TranslationSession.Response] = []
    for try await response in through.translate(batch: requests) { streamed.append(response) }
    let expected = try await direct.translations(from: requests)
    #expect(all.map(\.targetText) == expected.map(\.targetText))
    #expect(streamed.map(\.targetText) == expected.map(\.targetText))
    #expect(streamed.map(\.clientIdentifier) == requests.map(\.clientIdentifier))
  }

  @Test func refusalsThroughTheServiceAreThoseOfTheDirectPath() async throws {
    let service = try Providers.service()
    try service.start()
    defer { service.stop() }
    for test in TranslationSessionTests.refusals {
      let through = TranslationSession(
        installedSource: .tag(test.source), target: .tag(test.target), provider: test.provider,
        serviceEnvironment: service.environment)
      let error = await #expect(throws: TranslationError.self) { try await through.translate("The cat.") }
      #expect(error.map { test.error ~= $0 } == true, "\(test.testDescription): \(String(describing: error))")
      #expect(error?.failureReason?.contains(test.reason) == true, "\(String(describing: error))")
    }
    #expect(service.runners().count >= 2, "the service answered")
  }

  static let statuses: [(String, String, String, LanguageAvailability.Status)] = [
    (Providers.apertium, "en", "es", .installed), (Providers.apertium, "en", "ca", .supported),
    (Providers.apertium, "en", "xx", .unsupported), (Providers.rot13, "en", "en-x-rot13", .installed),
    (Providers.rot13, "en", "es", .unsupported), ("/nonexistent/Gone.translationprovider", "en", "es", .unsupported),
  ]

  @Test func availabilityThroughTheServiceIsThatOfTheDirectPath() async throws {
    let service = try Providers.service()
    try service.start()
    defer { service.stop() }
    for (provider, source, target, expected) in Self.statuses {
      let through = LanguageAvailability(provider: provider, serviceEnvironment: service.environment)
      let direct = LanguageAvailability(provider: provider)
      #expect(await through.status(from: .tag(source), to: .tag(target)) == expected, "\(provider) \(source) → \(target)")
      #expect(await direct.status(from: .tag(source), to: .tag(target)) == expected)
      #expect(await through.supportedLanguages == direct.supportedLanguages)
    }
    #expect(service.runners().count >= 2)
  }

  /// The service is killed (SIGKILL, no goodbye) between two requests of a
  /// session: the next request reconnects to a restarted service, or,
  /// with none, takes the direct path.
  @Test(arguments: [true, false])
  func aServiceKilledMidSessionDoesNotFailTheNextRequest(restarted: Bool) async throws {
    let service = try Providers.service()
    try service.start()
    defer { service.stop() }
    let session = TranslationSession(
      installedSource: .tag("en"), target: .tag("en-x-rot13"), provider: Providers.rot13, serviceEnvironment: service.environment)
    let availability = LanguageAvailability(provider: Providers.rot13, serviceEnvironment: service.environment)
    #expect(try await session.translate("Hello").targetText == "Uryyb")
    #expect(await availability.status(from: .tag("en"), to: .tag("en-x-rot13")) == .installed)
    kill(service.pid, SIGKILL)
    _ = service.waitForExit(seconds: 10)
    if restarted { try service.start() }
    #expect(try await session.translate("Hello again").targetText == "Uryyb ntnva")
    #expect(await availability.status(from: .tag("en"), to: .tag("en-x-rot13")) == .installed)
    #expect(try await session.translate("And again").targetText == "Naq ntnva")
    #expect(service.runners().count == (restarted ? 1 : 0), restarted ? "reconnected to the new service" : "the direct path")
  }
}

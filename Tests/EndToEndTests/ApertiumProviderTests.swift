import Testing
import TestSupport

/// The Apertium provider through the host and its sandboxed runner.
@Suite(.tags(.endToEnd)) struct ApertiumProviderTests {
  @Test func translatesEnglishToSpanishOffline() throws {
    let result = try Host().run("translate", "--provider", "Apertium", "--from", "en", "--to", "es", "The cat is on the table.")
    #expect(result.stdout == "El gato es en la mesa.\n")
    #expect(result.exitCode == 0)
  }

  @Test func itsSceneTranslatesOnAppearAndReplaces() throws {
    let result = try Host().run(
      "run", "--provider", "Apertium", "--text", "The dog.", "--from", "en", "--to", "es", "--replace", "--press",
      "Replace with Translation")
    #expect(result.stdout == "El perro.")
    #expect(result.exitCode == 0)
  }

  @Test(arguments: [("en", "fr", "unsupported language pairing 'en' → 'fr'"), ("en", "en", "unsupported language pairing 'en' → 'en'"), ("xx", "es", "unsupported source language 'xx'")])
  func unsupportedRequestsUseApplesVocabulary(_ source: String, _ target: String, _ message: String) throws {
    let result = try Host().run("translate", "--provider", "Apertium", "--from", source, "--to", target, "text")
    #expect(result.exitCode == 4)
    #expect(result.stderr.contains(message))
  }
}

@Suite(.tags(.endToEnd)) struct LanguagesCommandTests {
  @Test(arguments: [(["--from", "en", "--to", "es"], "installed\n"), (["--from", "en", "--to", "en"], "unsupported\n"), (["--from", "en", "--to", "fr"], "unsupported\n")])
  func statusOfOnePairAsLanguageAvailability(_ arguments: [String], _ expected: String) throws {
    let result = try Host().run(["languages", "--provider", "Apertium"] + arguments)
    #expect(result.stdout == expected)
  }

  @Test func listsEveryInstalledPair() throws {
    let result = try Host().run("languages", "--provider", "Apertium")
    #expect(result.stdout.contains("en → es  installed\n"))
    #expect(result.stdout.contains("es → en  installed\n"))
  }
}

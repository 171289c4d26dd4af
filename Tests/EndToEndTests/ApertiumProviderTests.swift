import TestSupport
import Testing

/// The Apertium provider through the host and its sandboxed runner.
@Suite(.tags(.endToEnd)) struct ApertiumProviderTests {
  @Test func translatesEnglishToSpanishOffline() throws {
    let result = try Host().run("translate", "--provider", "Apertium", "--from", "en", "--to", "es", "The cat is on the table.")
    #expect(result.stdout == "El gato es en la mesa.\n")
    #expect(result.exitCode == 0)
  }

  /// Texts on which Apertium marks unknown words (`*`), generation errors
  /// (`#`), or keeps blanks at either end.
  static let markedTexts = [
    "  My xyzzy dog sleeps. Where is the station?", "The frobnicator is on the table.\n", "Bob's grumblewort is green. ",
  ]

  /// `translate` gives clean text: what `apertium -u` prints, without the
  /// blanks at either end; `--raw` gives exactly what `apertium` prints.
  @Test(arguments: markedTexts)
  func translateGivesCleanTextAndRawGivesApertiumsOutput(_ text: String) throws {
    let host = try Host()
    let marked = try Command.run("/usr/bin/apertium", ["eng-spa"], stdin: text)
    let unmarked = try Command.run("/usr/bin/apertium", ["-u", "eng-spa"], stdin: text)
    try #require(marked.stdout.contains { "*#".contains($0) }, "no mark to remove in \(marked.stdout.debugDescription)")
    let clean = try host.run("translate", "--provider", "Apertium", "--from", "en", "--to", "es", text)
    #expect(clean.stdout == unmarked.stdout.trimmingWhitespace() + "\n")
    #expect(!clean.stdout.contains { "*#".contains($0) })
    let raw = try host.run("translate", "--provider", "Apertium", "--from", "en", "--to", "es", "--raw", text)
    #expect(raw.stdout == marked.stdout + "\n")
  }

  @Test func itsSceneTranslatesOnAppearAndReplaces() throws {
    let result = try Host().run(
      "run", "--provider", "Apertium", "--text", "The dog.", "--from", "en", "--to", "es", "--replace", "--press",
      "Replace with Translation")
    #expect(result.stdout == "El perro.")
    #expect(result.exitCode == 0)
  }

  @Test(arguments: [
    ("en", "fr", "unsupported target language 'fr'"), ("en", "en", "unsupported language pairing 'en' → 'en'"),
    ("xx", "es", "unsupported source language 'xx'"), ("es", "es", "unsupported language pairing 'es' → 'es'"),
  ])
  func unsupportedRequestsUseApplesVocabulary(_ source: String, _ target: String, _ message: String) throws {
    let result = try Host().run("translate", "--provider", "Apertium", "--from", source, "--to", target, "text")
    #expect(result.exitCode == 4)
    #expect(result.stderr.contains(message))
  }
}

@Suite(.tags(.endToEnd)) struct LanguagesCommandTests {
  @Test(arguments: [
    (["--from", "en", "--to", "es"], "installed\n"), (["--from", "en", "--to", "en"], "unsupported\n"),
    (["--from", "en", "--to", "ca"], "supported\n"), (["--from", "en", "--to", "xx"], "unsupported\n"),
  ])
  func statusOfOnePairAsLanguageAvailability(_ arguments: [String], _ expected: String) throws {
    let result = try Host().run(["languages", "--provider", "Apertium"] + arguments)
    #expect(result.stdout == expected)
  }

  @Test func listsInstalledPairsAndThoseADebianPackageWouldAdd() throws {
    let result = try Host().run("languages", "--provider", "Apertium")
    #expect(result.stdout.contains("en → es  installed\n"))
    #expect(result.stdout.contains("es → en  installed\n"))
    #expect(result.stdout.contains("en → ca  supported  (install the Debian package apertium-eng-cat)\n"))
  }
}

@Suite(.tags(.endToEnd)) struct TargetFromLocaleTests {
  @Test(arguments: [
    (["LANG": "es_ES.UTF-8"], "El gato.\n", Int32(0)),
    (["LANG": "en_GB.UTF-8", "LANGUAGE": "en:es"], "El gato.\n", 0),
    (["LC_ALL": "es_MX.UTF-8", "LANG": "de_DE.UTF-8"], "El gato.\n", 0),
    (["LANG": "C.UTF-8", "LANGUAGE": "es"], "", 64),
    (["LANG": "en_US.UTF-8"], "", 64),
  ])
  func withoutToTheTargetIsThePreferredLanguageThatIsNotTheSource(
    _ locale: [String: String], _ expected: String, _ exitCode: Int32
  ) throws {
    var host = try Host()
    host.environment.merge(locale) { $1 }
    let result = try host.run("translate", "--provider", "Apertium", "--from", "en", "The cat.")
    #expect(result.stdout == expected)
    #expect(result.exitCode == exitCode)
  }
}

@Suite(.tags(.endToEnd)) struct DetectionTests {
  @Test func translateDetectsTheSourceWhenItCan() throws {
    let result = try Host().run("translate", "--provider", "Apertium", "--to", "en", "El perro duerme en el jardín de la casa.")
    #expect(result.stdout == "The dog sleeps in the garden of the house.\n")
  }

  @Test func anUnidentifiableTextFailsNamingFrom() throws {
    let result = try Host().run("translate", "--provider", "Apertium", "--to", "es", "ok")
    #expect(result.exitCode == 4)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("pass --from <tag>"))
  }

  @Test func detectPrintsTheTagOrExplains() throws {
    #expect(try Host().run("detect", "Heute ist das Wetter schön und wir gehen an den Strand.").stdout == "de\n")
    let json = try Host().run("detect", "--json", "Grazie mille")
    #expect(json.exitCode == 4)
    #expect(json.stdout.contains("\"reliable\" : false"))
  }
}

import Testing
import TestSupport

@Suite(.tags(.endToEnd)) struct TranslateCommandTests {
  let rot13 = Host.providers + "/Rot13.translationprovider"

  @Test func cProviderTranslatesHeadlessly() throws {
    let result = try Host().run("translate", "--provider", rot13, "--from", "en", "--to", "en-x-rot13", "Hello, world!")
    #expect(result.stdout == "Uryyb, jbeyq!\n")
    #expect(result.exitCode == 0)
  }

  @Test func readsStdinWithoutItsTrailingNewline() throws {
    let result = try Host().run("translate", "--provider", rot13, "--from", "en-x-rot13", "--to", "en", stdin: "Uryyb\n")
    #expect(result.stdout == "Hello\n")
  }

  @Test func anUnsupportedPairUsesAppleVocabularyAndItsExitCode() throws {
    let result = try Host().run("translate", "--provider", rot13, "--from", "en", "--to", "fr", "Hello")
    #expect(result.exitCode == 4)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("Rot13 translates only between 'en' and 'en-x-rot13'"))
  }

  @Test func aSceneOnlyProviderCannotTranslateHeadlessly() throws {
    let result = try Host().run("translate", "--provider", Host.providers + "/Reverse.translationprovider", "--from", "en", "--to", "es", "x")
    #expect(result.exitCode == 70)
    #expect(result.stderr.contains("does not implement 'tp.translate/1'"))
  }
}

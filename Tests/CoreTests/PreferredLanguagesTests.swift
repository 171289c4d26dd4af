import Core
import Testing

/// The target Apple picks without one: the preferred language that is not the source.
@Suite struct PreferredLanguagesTests {
  @Test(arguments: [
    (["LANG": "es_ES.UTF-8"], "en", "es" as String?),
    (["LANG": "en_GB.UTF-8", "LANGUAGE": "en:es"], "en", "es"),
    (["LANG": "en_GB.UTF-8", "LANGUAGE": "en:es"], "en-US", "es"),
    (["LANG": "en_GB.UTF-8", "LANGUAGE": "en:es"], "es", "en"),
    (["LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"], "en", "de"),
    (["LANG": "C.UTF-8", "LANGUAGE": "es"], "en", nil),
    (["LANG": "en_US.UTF-8"], "en", nil),
    ([:], "en", nil),
  ])
  func theTargetIsThePreferredLanguageThatIsNotTheSource(_ environment: [String: String], _ source: String, _ target: String?) {
    #expect(PreferredLanguages.target(for: source, environment: environment) == target)
  }
}

/// Language tags as apps, scripts and users spell them (BCP 47 and POSIX,
/// any case, regions Apertium's pairs do not name), one table for the tests
/// of every path: the CLI with and without the service, D-Bus (`DBusTests`)
/// and the `Translation` library (`TranslationSessionTests`). Each must
/// reach Apertium's `en` → `es` and translate `sentence` into `translation`.
package enum LanguageTagCases {
  package static let sentence = "The cat is on the table."
  package static let translation = "El gato es en la mesa."
  package static let tags: [(source: String, target: String)] = [
    ("en", "es"), ("en_US", "es-ES"), ("en-US", "es_ES.UTF-8"), ("EN-gb", "es-MX"), ("en_GB.UTF-8", "ES"),
  ]
}

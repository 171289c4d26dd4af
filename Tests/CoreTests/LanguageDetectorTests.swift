import Testing

@testable import Core

/// CLD2 on texts in 13 languages, long, medium and short.
@Suite struct LanguageDetectorTests {
  struct Sample: Sendable, CustomTestStringConvertible {
    var tag: String
    var text: String
    var testDescription: String { "\(tag): \(text.prefix(30))" }
  }

  /// Long and medium texts: detection must be reliable and right.
  static let clear: [Sample] = [
    (
      "en", "The weather is lovely today and we are going to the beach with the children.",
      "I would like a cup of coffee, please."
    ),
    (
      "es", "Hoy hace buen tiempo y vamos a la playa con los niños después de comer.", "Me gustaría un café con leche, por favor."
    ),
    (
      "fr", "Il fait beau aujourd'hui et nous allons à la plage avec les enfants après le déjeuner.",
      "Je voudrais un café, s'il vous plaît."
    ),
    ("de", "Heute ist das Wetter schön und wir gehen mit den Kindern an den Strand.", "Ich hätte gern einen Kaffee, bitte."),
    ("it", "Oggi il tempo è bello e andiamo al mare con i bambini dopo pranzo.", "Vorrei un caffè macchiato, per favore."),
    (
      "pt", "Hoje o tempo está bom e vamos à praia com as crianças depois do almoço.",
      "Eu gostaria de um café com leite, por favor."
    ),
    ("ca", "Avui fa bon temps i anem a la platja amb els nens després de dinar.", "Voldria un cafè amb llet, si us plau."),
    ("nl", "Vandaag is het mooi weer en we gaan met de kinderen naar het strand.", "Ik wil graag een kopje koffie, alstublieft."),
    ("pl", "Dzisiaj jest ładna pogoda i idziemy z dziećmi na plażę po obiedzie.", "Poproszę filiżankę kawy z mlekiem."),
    ("ru", "Сегодня хорошая погода, и мы идём с детьми на пляж после обеда.", "Я хотел бы чашку кофе, пожалуйста."),
    ("sv", "Idag är det fint väder och vi går till stranden med barnen efter lunch.", "Jag skulle vilja ha en kopp kaffe, tack."),
    ("tr", "Bugün hava çok güzel ve öğle yemeğinden sonra çocuklarla sahile gidiyoruz.", "Bir fincan kahve istiyorum, lütfen."),
    ("ja", "今日は天気が良いので、昼ご飯の後で子供たちと海に行きます。", "コーヒーを一杯お願いします。"),
  ].flatMap { tag, long, medium in [Sample(tag: tag, text: long), Sample(tag: tag, text: medium)] }

  /// Short phrases: right, or honestly unsure; never confidently wrong.
  static let short: [Sample] = [
    ("en", "Thank you"), ("es", "Gracias"), ("fr", "Merci beaucoup"), ("de", "Danke schön"), ("it", "Grazie mille"),
    ("pt", "Muito obrigado"), ("ca", "Moltes gràcies"), ("nl", "Dank je wel"), ("pl", "Dziękuję bardzo"),
    ("ru", "Спасибо большое"), ("sv", "Tack så mycket"), ("tr", "Çok teşekkürler"), ("ja", "ありがとう"),
  ].map { Sample(tag: $0.0, text: $0.1) }

  @Test(arguments: clear) func detectsClearTextsReliably(_ sample: Sample) {
    let detection = LanguageDetector.detect(sample.text)
    #expect(detection.tag == sample.tag)
    #expect(detection.reliable)
    #expect(detection.confidence >= 50)
  }

  @Test(arguments: short) func shortPhrasesAreRightOrUnsure(_ sample: Sample) {
    let detection = LanguageDetector.detect(sample.text)
    #expect(!detection.reliable || detection.tag == sample.tag, "\(detection)")
  }

  @Test(arguments: ["", "ok", "123", "!!! ???", "https://example.org/a/b"])
  func textWithoutLanguageIsUnknownNotEnglish(_ text: String) {
    let detection = LanguageDetector.detect(text)
    #expect(!detection.reliable)
    #expect(throws: LanguageError.self) { try LanguageDetector.sourceLanguage(of: text) }
  }
}

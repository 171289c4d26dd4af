import ApertiumSupport
import FoundationEssentials

/// The two calls of the Apertium-APY HTTP API the provider uses.
struct APYClient {
  let http: HTTPClient

  private struct PairList: Decodable {
    struct Pair: Decodable {
      var sourceLanguage: String
      var targetLanguage: String
    }
    var responseData: [Pair]
  }

  private struct Translation: Decodable {
    struct Data: Decodable { var translatedText: String }
    var responseData: Data
  }

  private struct Failure: Decodable {
    var message: String?
    var explanation: String?
  }

  /// `GET /listPairs`, as BCP-47 pairs.
  func pairs() throws(APYError) -> [(source: String, target: String)] {
    let list = try decode(PairList.self, try call("/listPairs"))
    return list.responseData.map {
      (ApertiumLanguage.tag(forCode: $0.sourceLanguage), ApertiumLanguage.tag(forCode: $0.targetLanguage))
    }
  }

  /// `GET /translate?langpair=<src>|<tgt>&q=<text>`, with `markUnknown=no`
  /// unless `marksUnknownWords` (APY then removes Apertium's marks itself).
  func translate(
    _ text: String, from source: String, to target: String, marksUnknownWords: Bool = true
  ) throws(APYError) -> String {
    let pair = "\(ApertiumLanguage.code(forTag: source))|\(ApertiumLanguage.code(forTag: target))"
    let marks = marksUnknownWords ? "" : "&markUnknown=no"
    let path = "/translate?langpair=\(Self.escape(pair))&q=\(Self.escape(text))" + marks
    return try decode(Translation.self, try call(path)).responseData.translatedText
  }

  private func call(_ path: String) throws(APYError) -> [UInt8] {
    let (status, body) = try http.get(path)
    guard status == 200 else {
      let failure = try? JSONDecoder().decode(Failure.self, from: Data(body))
      throw .server(http.endpoint, status: status, message: failure?.explanation ?? failure?.message ?? "no explanation")
    }
    return body
  }

  private func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws(APYError) -> T {
    do { return try JSONDecoder().decode(T.self, from: Data(body)) } catch {
      throw .malformed(http.endpoint, reason: "not the JSON APY sends")
    }
  }

  /// Percent-encodes everything but RFC 3986's unreserved characters.
  static func escape(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let scalar = Unicode.Scalar(byte)
      if (byte < 0x80 && (Character(scalar).isLetter || Character(scalar).isNumber)) || "-._~".utf8.contains(byte) {
        out.unicodeScalars.append(scalar)
      } else {
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }
}

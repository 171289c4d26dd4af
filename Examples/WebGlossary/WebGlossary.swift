// WebGlossary: a translation extension written for iOS against a web API,
// ported by deleting `import SwiftUI`. Its entry point is a class that keeps
// its URLSession in a stored property; the scene asks the server with
// `async` URLSession calls from `.task`, the headless translator with a data
// task and a semaphore; its strings come from its own `.lproj` folders
// (NSLocalizedString, String(localized:) and Text's literal keys), its server from its settings (`endpoint`), and it
// remembers how many texts it translated in `UserDefaults`.
import TranslationUIProvider

@main
class WebGlossaryExtension: TranslationUIProviderExtension, TranslationProviding {
  let session = URLSession(configuration: .ephemeral)
  let endpoint = URL(string: ProviderSettings.string("endpoint") ?? "http://127.0.0.1:8787")!

  var body: some TranslationUIProviderExtensionScene {
    TranslationUIProviderSelectedTextScene { context in
      WebGlossaryView(context: context, client: WebGlossaryClient(session: self.session, endpoint: self.endpoint))
    }
  }

  func translate(_ texts: [String], from source: String, to target: String) throws -> [String] {
    let client = WebGlossaryClient(session: session, endpoint: endpoint)
    return try texts.map { text in
      do {
        return try client.translateWaiting(text, to: target)
      } catch {
        throw TranslationProviderError.failed("\(endpoint.absoluteString): \(error.localizedDescription)")
      }
    }
  }

  var languagePairs: [LanguagePair] {
    [LanguagePair(source: "en", target: "es", status: .installed)]
  }
}

/// What the server answers: `{"translation": "…"}`.
struct WebGlossaryAnswer: Decodable {
  let translation: String
}

/// The server's one call, `POST /translate` with `{"q": <text>, "to": <language>}`.
struct WebGlossaryClient: Sendable {
  let session: URLSession
  let endpoint: URL

  func request(_ text: String, to target: String) -> URLRequest {
    var request = URLRequest(url: endpoint.appendingPathComponent("translate"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try? JSONEncoder().encode(["q": text, "to": target])
    request.timeoutInterval = 10
    return request
  }

  /// The async way, as a view's `.task` calls it.
  func translate(_ text: String, to target: String) async throws -> String {
    let (data, response) = try await session.data(for: request(text, to: target))
    guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
      throw URLError(.badServerResponse)
    }
    return try JSONDecoder().decode(WebGlossaryAnswer.self, from: data).translation
  }

  /// The completion-handler way, waited for, as synchronous iOS code does.
  func translateWaiting(_ text: String, to target: String) throws -> String {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<String, any Error> = .failure(URLError(.unknown))
    session.dataTask(with: request(text, to: target)) { data, response, error in
      if let error {
        result = .failure(error)
      } else if let data, (response as? HTTPURLResponse)?.statusCode == 200 {
        result = Result { try JSONDecoder().decode(WebGlossaryAnswer.self, from: data).translation }
      } else {
        result = .failure(URLError(.badServerResponse))
      }
      done.signal()
    }.resume()
    done.wait()
    return try result.get()
  }
}

/// The scene's model.
@MainActor @Observable
final class WebGlossaryModel {
  var translation: String?
  var failure: String?

  func load(_ text: String, with client: WebGlossaryClient) async {
    do {
      let translation = try await client.translate(text, to: "es")
      self.translation = translation
      let defaults = UserDefaults.standard
      defaults.set(defaults.integer(forKey: "translations") + 1, forKey: "translations")
    } catch {
      failure = error.localizedDescription
    }
  }
}

struct WebGlossaryView: View {
  let context: TranslationUIProviderContext
  let client: WebGlossaryClient
  @State private var model = WebGlossaryModel()

  var body: some View {
    VStack(alignment: .leading) {
      Text(NSLocalizedString("Web Glossary", comment: "The scene's title")).font(.headline)
      Text(context.inputText ?? "")
      if let translation = model.translation {
        Text(translation)
        Text(String(localized: "Translated by \(client.endpoint.host ?? "")", comment: "Who translated"))
          .foregroundStyle(.secondary)
      } else if let failure = model.failure {
        Text(failure)
      } else {
        Text("Looking up…", comment: "While the server answers")
      }
      if context.allowsReplacement {
        Button(String(localized: "Replace with Translation", comment: "Replaces the selection")) {
          context.finish(translation: AttributedString(model.translation ?? ""))
        }
        .disabled(model.translation == nil)
      }
    }
    .task {
      await model.load(String((context.inputText ?? "").characters), with: client)
    }
  }
}

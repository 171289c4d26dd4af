import Testing
import TranslationUIProvider

/// A model as an iOS file writes it with only the SDK imported (what
/// `import SwiftUI` gave it): Observation, Dispatch, Foundation and
/// FoundationNetworking are in scope.
@Observable final class ImportedModel: @unchecked Sendable {
  var words: [String] = []
}

@Suite struct SDKImportTests {
  @Test func dispatchObservationAndURLSessionNeedNoOtherImport() {
    let model = ImportedModel()
    DispatchQueue.global().sync { model.words.append("uno") }
    #expect(model.words == ["uno"])
    let request = URLRequest(url: URL(string: "http://127.0.0.1:9/")!)
    #expect(request.url?.port == 9)
    #expect(type(of: URLSession.shared) == URLSession.self)
    #expect(Bundle.provider.bundlePath == Bundle.main.bundlePath)
  }
}

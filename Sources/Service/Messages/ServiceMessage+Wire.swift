import Core
import FoundationEssentials
import RunnerProtocol
import System
import TranslationViewTree

extension ServiceRequest: WireCodable {
  package func encode(to w: inout WireWriter) {
    switch self {
    case .hello(let version, let context):
      w.tag(1)
      w.integer(Int32(truncatingIfNeeded: version))
      w.string(context)
    case .openSession(let provider, let timeout):
      w.tag(2)
      w.optionalString(provider)
      w.double(timeout.inSeconds)
    case .translate(let provider, let timeout, let source, let target, let texts):
      w.tag(3)
      w.optionalString(provider)
      w.double(timeout.inSeconds)
      w.string(source)
      w.string(target)
      w.strings(texts)
    case .languages(let provider, let timeout):
      w.tag(4)
      w.optionalString(provider)
      w.double(timeout.inSeconds)
    case .detect(let text):
      w.tag(5)
      w.string(text)
    case .openScene(let provider, let timeout, let text, let allowsReplacement, let source, let target):
      w.tag(6)
      w.optionalString(provider)
      w.double(timeout.inSeconds)
      w.optionalString(text)
      w.boolean(allowsReplacement)
      w.optionalString(source)
      w.optionalString(target)
    case .performAction(let id):
      w.tag(7)
      w.string(id)
    case .setText(let id, let value):
      w.tag(8)
      w.string(id)
      w.string(value)
    case .render: w.tag(9)
    case .waitForChange(let span):
      w.tag(10)
      w.integer(span.pollMilliseconds)
    case .closeScene: w.tag(11)
    case .takeChange: w.tag(12)
    case .watchChange: w.tag(13)
    }
  }

  package init(from r: inout WireReader) throws(ProtocolError) {
    switch try r.tag() {
    case 1: self = .hello(protocolVersion: Int(try r.integer()), context: try r.string())
    case 2: self = .openSession(provider: try r.optionalString(), timeout: try Self.timeout(&r))
    case 3:
      self = .translate(
        provider: try r.optionalString(), timeout: try Self.timeout(&r), source: try r.string(), target: try r.string(),
        texts: try r.strings())
    case 4: self = .languages(provider: try r.optionalString(), timeout: try Self.timeout(&r))
    case 5: self = .detect(text: try r.string())
    case 6:
      self = .openScene(
        provider: try r.optionalString(), timeout: try Self.timeout(&r), inputText: try r.optionalString(),
        allowsReplacement: try r.boolean(), sourceLanguage: try r.optionalString(), targetLanguage: try r.optionalString())
    case 7: self = .performAction(id: try r.string())
    case 8: self = .setText(id: try r.string(), value: try r.string())
    case 9: self = .render
    case 10:
      let milliseconds = try r.integer()
      guard milliseconds >= 0 else { throw .malformed("a negative wait") }
      self = .waitForChange(.milliseconds(milliseconds))
    case 11: self = .closeScene
    case 12: self = .takeChange
    case 13: self = .watchChange
    case let tag: throw .malformed("unknown request \(tag)")
    }
  }

  /// A timeout must be a positive, finite number of seconds.
  private static func timeout(_ r: inout WireReader) throws(ProtocolError) -> Duration {
    let seconds = try r.double()
    guard seconds.isFinite, seconds > 0 else { throw .malformed("a timeout of \(seconds) seconds") }
    return .seconds(saturating: seconds)
  }
}

extension ServiceReply: WireCodable {
  package func encode(to w: inout WireWriter) {
    switch self {
    case .hello(let version, let context):
      w.tag(1)
      w.integer(Int32(truncatingIfNeeded: version))
      w.string(context)
    case .session(let bundle, let capabilities, let notices):
      w.tag(2)
      // The manifest as JSON: it is small, sent once per session, and keeps its own schema.
      w.string((try? JSONEncoder().encode(bundle)).map { String(decoding: $0, as: UTF8.self) } ?? "")
      w.strings(capabilities.map(\.rawValue))
      w.strings(notices)
    case .translations(let texts, let notices):
      w.tag(3)
      w.strings(texts)
      w.strings(notices)
    case .languages(let pairs, let notices):
      w.tag(4)
      RunnerReply.languages(pairs).encode(to: &w)
      w.strings(notices)
    case .detection(let detection):
      w.tag(5)
      w.optionalString(detection.tag)
      w.optionalString(detection.name)
      w.integer(Int32(clamping: detection.confidence))
      w.boolean(detection.reliable)
      w.strings(detection.candidates.flatMap { [$0.tag, $0.name, String($0.confidence)] })
    case .scene(.view(let tree)):
      w.tag(6)
      w.viewTree(tree)
    case .scene(.finished(let translation)):
      w.tag(7)
      w.optionalString(translation)
    case .change(let update, let expandedSheet):
      w.tag(10)
      w.boolean(expandedSheet)
      switch update {
      case nil: w.tag(0)
      case .view(let tree)?:
        w.tag(1)
        w.viewTree(tree)
      case .finished(let translation)?:
        w.tag(2)
        w.optionalString(translation)
      }
    case .done: w.tag(8)
    case .failure(let failure):
      w.tag(9)
      failure.encode(to: &w)
    }
  }

  package init(from r: inout WireReader) throws(ProtocolError) {
    switch try r.tag() {
    case 1: self = .hello(protocolVersion: Int(try r.integer()), context: try r.string())
    case 2:
      let json = try r.string()
      guard let bundle = try? JSONDecoder().decode(ProviderBundle.self, from: Data(json.utf8)) else {
        throw .malformed("a session without a readable bundle")
      }
      self = .session(bundle: bundle, capabilities: try r.strings().map(Capability.init(rawValue:)), notices: try r.strings())
    case 3: self = .translations(try r.strings(), notices: try r.strings())
    case 4:
      guard case .languages(let pairs) = try RunnerReply(from: &r) else { throw .malformed("a language list of another kind") }
      self = .languages(pairs, notices: try r.strings())
    case 5:
      let tag = try r.optionalString()
      let name = try r.optionalString()
      let confidence = Int(try r.integer())
      let reliable = try r.boolean()
      let fields = try r.strings()
      guard fields.count % 3 == 0 else { throw .malformed("a candidate list has \(fields.count) fields") }
      var candidates: [LanguageDetection.Candidate] = []
      for index in stride(from: 0, to: fields.count, by: 3) {
        guard let share = Int(fields[index + 2]) else { throw .malformed("a candidate's confidence is not a number") }
        candidates.append(LanguageDetection.Candidate(tag: fields[index], name: fields[index + 1], confidence: share))
      }
      self = .detection(
        LanguageDetection(tag: tag, name: name, confidence: confidence, reliable: reliable, candidates: candidates))
    case 6: self = .scene(.view(try r.viewTree()))
    case 7: self = .scene(.finished(translation: try r.optionalString()))
    case 10:
      let expandedSheet = try r.boolean()
      switch try r.tag() {
      case 0: self = .change(nil, expandedSheet: expandedSheet)
      case 1: self = .change(.view(try r.viewTree()), expandedSheet: expandedSheet)
      case 2: self = .change(.finished(translation: try r.optionalString()), expandedSheet: expandedSheet)
      case let tag: throw .malformed("unknown scene change \(tag)")
      }
    case 8: self = .done
    case 9: self = .failure(try HostError(from: &r))
    case let tag: throw .malformed("unknown reply \(tag)")
    }
  }
}

extension WireWriter {
  fileprivate mutating func viewTree(_ tree: ViewTree) {
    string((try? tree.jsonData()).map { String(decoding: $0, as: UTF8.self) } ?? "")
  }
}

extension WireReader {
  fileprivate mutating func viewTree() throws(ProtocolError) -> ViewTree {
    let json = try string()
    do {
      return try ViewTree.decode(Array(json.utf8))
    } catch {
      throw .malformed("a view tree the service sent: \(error.description)")
    }
  }
}

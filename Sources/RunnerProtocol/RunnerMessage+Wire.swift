extension RunnerRequest: WireCodable {
  package func encode(to w: inout WireWriter) {
    switch self {
    case .describeSandbox: w.tag(1)
    case .hello(let version, let identifier, let bundlePath, let executablePath, let settings):
      w.tag(2)
      w.integer(Int32(truncatingIfNeeded: version))
      w.string(identifier)
      w.string(bundlePath)
      w.string(executablePath)
      w.string(settings)
    case .openScene(let text, let allowsReplacement, let source, let target):
      w.tag(3)
      w.optionalString(text)
      w.boolean(allowsReplacement)
      w.optionalString(source)
      w.optionalString(target)
    case .render: w.tag(4)
    case .performAction(let id):
      w.tag(5)
      w.string(id)
    case .setText(let id, let value):
      w.tag(6)
      w.string(id)
      w.string(value)
    case .closeScene: w.tag(7)
    case .translate(let source, let target, let texts):
      w.tag(8)
      w.string(source)
      w.string(target)
      w.strings(texts)
    case .languages: w.tag(9)
    case .ping: w.tag(10)
    }
  }

  package init(from r: inout WireReader) throws(ProtocolError) {
    switch try r.tag() {
    case 1: self = .describeSandbox
    case 2:
      self = .hello(
        protocolVersion: Int(try r.integer()), bundleIdentifier: try r.string(), bundlePath: try r.string(),
        executablePath: try r.string(), settings: try r.string())
    case 3:
      self = .openScene(
        inputText: try r.optionalString(), allowsReplacement: try r.boolean(), sourceLanguage: try r.optionalString(),
        targetLanguage: try r.optionalString())
    case 4: self = .render
    case 5: self = .performAction(id: try r.string())
    case 6: self = .setText(id: try r.string(), value: try r.string())
    case 7: self = .closeScene
    case 8: self = .translate(source: try r.string(), target: try r.string(), texts: try r.strings())
    case 9: self = .languages
    case 10: self = .ping
    case let tag: throw .malformed("unknown request \(tag)")
    }
  }
}

extension RunnerMessage: WireCodable {
  package func encode(to w: inout WireWriter) {
    switch self {
    case .reply(let reply):
      w.tag(1)
      reply.encode(to: &w)
    case .event(let event):
      w.tag(2)
      event.encode(to: &w)
    }
  }

  package init(from r: inout WireReader) throws(ProtocolError) {
    switch try r.tag() {
    case 1: self = .reply(try RunnerReply(from: &r))
    case 2: self = .event(try SceneEvent(from: &r))
    case let tag: throw .malformed("unknown message \(tag)")
    }
  }
}

extension RunnerReply: WireCodable {
  package func encode(to w: inout WireWriter) {
    switch self {
    case .ready(let version, let abi, let capabilities, let sandbox):
      w.tag(1)
      w.integer(Int32(truncatingIfNeeded: version))
      w.string(abi)
      w.strings(capabilities.map(\.rawValue))
      w.strings(sandbox.map(\.rawValue))
    case .sandbox(let layers):
      w.tag(2)
      w.strings(layers.map(\.rawValue))
    case .view(let json):
      w.tag(3)
      w.string(json)
    case .finished: w.tag(4)
    case .done: w.tag(5)
    case .translations(let texts):
      w.tag(6)
      w.strings(texts)
    case .languages(let pairs):
      w.tag(7)
      w.strings(pairs.flatMap { [$0.source, $0.target, $0.availability.rawValue, $0.note] })
    case .failure(let failure):
      w.tag(8)
      w.string(failure.kind.rawValue)
      w.integer(failure.status?.rawValue ?? -1)
      w.string(failure.message)
    }
  }

  package init(from r: inout WireReader) throws(ProtocolError) {
    switch try r.tag() {
    case 1:
      self = .ready(
        protocolVersion: Int(try r.integer()), providerABI: try r.string(),
        capabilities: try r.strings().map(Capability.init(rawValue:)), sandbox: try Self.layers(&r))
    case 2: self = .sandbox(try Self.layers(&r))
    case 3: self = .view(json: try r.string())
    case 4: self = .finished
    case 5: self = .done
    case 6: self = .translations(try r.strings())
    case 7:
      let fields = try r.strings()
      guard fields.count % 4 == 0 else { throw .malformed("a language list has \(fields.count) fields") }
      var pairs: [LanguagePairStatus] = []
      for index in stride(from: 0, to: fields.count, by: 4) {
        guard let availability = LanguagePairStatus.Availability(rawValue: fields[index + 2]) else {
          throw .malformed("unknown availability '\(fields[index + 2])'")
        }
        pairs.append(
          LanguagePairStatus(
            source: fields[index], target: fields[index + 1], availability: availability, note: fields[index + 3]))
      }
      self = .languages(pairs)
    case 8:
      guard let kind = RunnerFailure.Kind(rawValue: try r.string()) else { throw .malformed("unknown failure kind") }
      let status = try r.integer()
      self = .failure(RunnerFailure(kind: kind, status: status < 0 ? nil : ProviderStatus(status), message: try r.string()))
    case let tag: throw .malformed("unknown reply \(tag)")
    }
  }

  private static func layers(_ r: inout WireReader) throws(ProtocolError) -> [SandboxLayer] {
    var layers: [SandboxLayer] = []
    for name in try r.strings() {
      guard let layer = SandboxLayer(rawValue: name) else { throw .malformed("unknown sandbox layer '\(name)'") }
      layers.append(layer)
    }
    return layers
  }
}

extension SceneEvent: WireCodable {
  package func encode(to w: inout WireWriter) {
    switch self {
    case .finished(let translation):
      w.tag(1)
      w.optionalString(translation)
    case .renderRequested: w.tag(2)
    case .expandSheet: w.tag(3)
    case .violation(let message):
      w.tag(4)
      w.string(message)
    }
  }

  package init(from r: inout WireReader) throws(ProtocolError) {
    switch try r.tag() {
    case 1: self = .finished(translation: try r.optionalString())
    case 2: self = .renderRequested
    case 3: self = .expandSheet
    case 4: self = .violation(try r.string())
    case let tag: throw .malformed("unknown event \(tag)")
    }
  }
}

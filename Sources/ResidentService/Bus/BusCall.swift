import Service

/// A method call of the D-Bus interface, its arguments read (and checked
/// by type against the introspection data, which GDBus does before any of
/// this code runs) by its handler in `BusMethods`.
enum BusCall: Sendable {
  /// `Translate`, `TranslateRequest` with the caller's `requestID` ("" for
  /// none), or `TranslateWithOptions`; `timeout` is the provider's deadline
  /// (the option `timeout`, else `RequestDeadline.standard`, as on the socket).
  case translate(
    texts: [String], source: String, target: String, provider: String, requestID: String,
    timeout: Duration = RequestDeadline.standard)
  /// `CancelTranslate`: the caller's own calls with that request id.
  case cancelTranslate(requestID: String)
  case languages(provider: String)
  case detect(text: String)
  case present(BusPresentation.Request)

  /// The method's name, for the service's log.
  var method: String {
    switch self {
    case .translate: "Translate"
    case .cancelTranslate: "CancelTranslate"
    case .languages: "Languages"
    case .detect: "Detect"
    case .present: "Present"
    }
  }
}

/// What a method call answers, before it is encoded as a D-Bus reply.
enum BusReply: Sendable {
  case translations([String])
  /// (source, target, status) per pair.
  case pairs([[String]])
  case detection(tag: String, confidence: Double, reliable: Bool)
  case presented(response: UInt32, replacement: String)
  /// `Present`'s request object.
  case handle(String)
  /// A method without out arguments.
  case nothing
}

import CBusInterface
import CGDBus
import Service

/// The handlers of the interface's methods, one per `handle-*` signal of the
/// skeleton that `gdbus-codegen` generates from the interface's XML
/// (`CBusInterface`): the generated dispatch has found the method, checked
/// the arguments' types and unpacked them; each handler only makes its
/// `BusCall` and hands it to the endpoint. A method of the XML that has no
/// handler here is answered `UnknownMethod` by the generated code.
///
/// The handlers run on the bus's thread, where the skeleton's object is
/// registered; the C signatures are the generated signals' (`gboolean
/// handle_translate (CBusTranslation1 *, GDBusMethodInvocation *, const
/// gchar *const *texts, const gchar *source, …, gpointer user_data)`).
enum BusMethods {
  typealias CString = UnsafePointer<CChar>?
  typealias CStrings = UnsafePointer<UnsafePointer<CChar>?>?
  typealias Handler1 = @convention(c) (OpaquePointer?, OpaquePointer?, CString, gpointer?) -> gboolean
  typealias HandlerPresent =
    @convention(c) (OpaquePointer?, OpaquePointer?, CString, CString, OpaquePointer?, gpointer?) ->
    gboolean
  typealias HandlerTranslate =
    @convention(c) (OpaquePointer?, OpaquePointer?, CStrings, CString, CString, CString, gpointer?)
    -> gboolean
  typealias HandlerTranslateRequest =
    @convention(c) (
      OpaquePointer?, OpaquePointer?, CStrings, CString, CString, CString, CString, gpointer?
    ) -> gboolean
  typealias HandlerTranslateWithOptions =
    @convention(c) (
      OpaquePointer?, OpaquePointer?, CStrings, CString, CString, OpaquePointer?, gpointer?
    ) -> gboolean

  /// Connects a handler to each method signal of `skeleton` (a `CBusTranslation1Skeleton`), for `endpoint`.
  static func connect(_ skeleton: OpaquePointer, to endpoint: BusEndpoint) {
    let data = Unmanaged.passUnretained(endpoint).toOpaque()
    let handlers: [(String, GCallback)] = [
      ("handle-translate", unsafeBitCast(translate, to: GCallback.self)),
      ("handle-translate-request", unsafeBitCast(translateRequest, to: GCallback.self)),
      ("handle-translate-with-options", unsafeBitCast(translateWithOptions, to: GCallback.self)),
      ("handle-cancel-translate", unsafeBitCast(cancelTranslate, to: GCallback.self)),
      ("handle-languages", unsafeBitCast(languages, to: GCallback.self)),
      ("handle-detect", unsafeBitCast(detect, to: GCallback.self)),
      ("handle-present", unsafeBitCast(present, to: GCallback.self)),
    ]
    for (signal, handler) in handlers {
      _ = cgdbus_signal_connect(UnsafeMutableRawPointer(skeleton), signal, handler, data)
    }
  }

  // MARK: Handlers

  private static let translate: HandlerTranslate = { _, invocation, texts, source, target, provider, data in
    hand(data, invocation) {
      .translate(
        texts: strings(texts), source: string(source), target: string(target), provider: string(provider), requestID: "")
    }
  }

  private static let translateRequest: HandlerTranslateRequest = {
    _, invocation, texts, source, target, provider, requestID, data in
    hand(data, invocation) {
      .translate(
        texts: strings(texts), source: string(source), target: string(target), provider: string(provider),
        requestID: string(requestID))
    }
  }

  private static let translateWithOptions: HandlerTranslateWithOptions = {
    _, invocation, texts, source, target, options, data in
    hand(data, invocation) { () throws(BusError) in
      let options = try BusOptions(options, types: ["provider": "s", "request_id": "s", "timeout": "d"])
      return .translate(
        texts: strings(texts), source: string(source), target: string(target), provider: options.string("provider") ?? "",
        requestID: options.string("request_id") ?? "", timeout: try options.timeout() ?? RequestDeadline.standard)
    }
  }

  private static let cancelTranslate: Handler1 = { _, invocation, requestID, data in
    hand(data, invocation) { .cancelTranslate(requestID: string(requestID)) }
  }

  private static let languages: Handler1 = { _, invocation, provider, data in
    hand(data, invocation) { .languages(provider: string(provider)) }
  }

  private static let detect: Handler1 = { _, invocation, text, data in
    hand(data, invocation) { .detect(text: string(text)) }
  }

  private static let present: HandlerPresent = { _, invocation, parentWindow, text, options, data in
    hand(data, invocation) { () throws(BusError) in
      let options = try BusOptions(
        options,
        types: [
          "anchor": "(ii)", "arrow_edge": "s", "provider": "s", "source": "s", "target": "s", "handle_token": "s",
          "allows_replacement": "b", "press": "as", "timeout": "d",
        ])
      var request = BusPresentation.Request(parentWindow: string(parentWindow), text: string(text))
      request.anchor = options.point("anchor")
      request.arrowEdge = options.string("arrow_edge")
      request.provider = options.string("provider")?.nonEmpty
      request.source = options.string("source")?.nonEmpty
      request.target = options.string("target")?.nonEmpty
      request.handleToken = options.string("handle_token")
      request.allowsReplacement = options.boolean("allows_replacement") ?? false
      request.presses = options.strings("press") ?? []
      request.timeout = try options.timeout()
      return .present(request)
    }
  }

  // MARK: Helpers

  /// Hands the call `make` reads to the endpoint `data` points at, or answers its error. Always handled.
  private static func hand(
    _ data: gpointer?, _ invocation: OpaquePointer?, _ make: () throws(BusError) -> BusCall
  ) -> gboolean {
    let endpoint = Unmanaged<BusEndpoint>.fromOpaque(data!).takeUnretainedValue()
    endpoint.received(Result(catching: make), invocation: invocation!)
    return 1
  }

  private static func string(_ text: CString) -> String { text.map { String(cString: $0) } ?? "" }

  /// A NULL-terminated array of strings (an `as` argument).
  private static func strings(_ array: CStrings) -> [String] {
    guard let array else { return [] }
    var strings: [String] = []
    var index = 0
    while let text = array[index] {
      strings.append(String(cString: text))
      index += 1
    }
    return strings
  }
}

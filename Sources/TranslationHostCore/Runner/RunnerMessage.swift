/// The runner protocol: what the host and a `translation-provider-runner`
/// say to each other over their socket, one message per frame (see
/// `FrameChannel` and `WireFormat`). Version `RunnerProtocol.version`; the host's first
/// request is `hello`, and a runner of another version refuses it.
package enum RunnerProtocol {
  /// Bumped on any incompatible change to the messages below.
  package static let version = 2
  /// The descriptor on which a runner finds its end of the socket.
  package static let runnerDescriptor: Int32 = 3
}

/// A request from the host; each gets exactly one `RunnerReply`.
package enum RunnerRequest: Sendable, Equatable {
  /// Say which isolation layers are in force; allowed before `hello`.
  case describeSandbox
  /// Load the provider. Must come before any request below.
  case hello(protocolVersion: Int, bundleIdentifier: String, bundlePath: String, executablePath: String, settings: String)
  /// Create the selected-text scene; replied to with its first view.
  case openScene(inputText: String?, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?)
  /// Render the scene again.
  case render
  /// Press a control; replied to with the new view, or `finished` if the scene finished.
  case performAction(id: String)
  /// Set a text field; replied to with the new view.
  case setText(id: String, value: String)
  /// Destroy the scene.
  case closeScene
  /// Translate a batch headlessly.
  case translate(source: String, target: String, texts: [String])
  /// List the provider's language pairs.
  case languages
  /// Answer `done` at once (round-trip measurements).
  case ping
}

/// The runner's answer to one request.
package enum RunnerReply: Sendable, Equatable {
  /// The provider loaded; `capabilities` lists the ids it implements,
  /// `sandbox` the isolation layers in force.
  case ready(protocolVersion: Int, capabilities: [String], sandbox: [SandboxLayer])
  /// The isolation layers in force.
  case sandbox([SandboxLayer])
  /// The scene's view tree, exactly as the provider rendered it (the host checks it).
  case view(json: String)
  /// The scene finished during the request (a `finished` event came first).
  case finished
  /// The request succeeded and has nothing to return.
  case done
  /// Translations in request order.
  case translations([String])
  /// The provider's language pairs.
  case languages([LanguagePairStatus])
  /// The request failed.
  case failure(RunnerFailure)
}

/// A frame from the runner: a reply, or an event the provider caused.
package enum RunnerMessage: Sendable, Equatable {
  case reply(RunnerReply)
  case event(ProviderScene.Event)
}

/// Why a request failed on the runner's side.
package struct RunnerFailure: Sendable, Equatable, Error, CustomStringConvertible {
  package enum Kind: String, Sendable {
    /// The provider's shared object could not be loaded or initialised.
    case load
    /// The provider answered with a failure.
    case provider
    /// The host asked for something out of order (a host bug).
    case request
    /// The sandbox could not be set up, so the provider was not loaded.
    case sandbox
    /// The provider broke the ABI's rules (finishing twice, a replacement that is not UTF-8).
    case violation
  }

  package var kind: Kind
  package var status: ProviderStatus?
  package var message: String

  package init(kind: Kind, status: ProviderStatus? = nil, message: String) {
    self.kind = kind
    self.status = status
    self.message = message
  }

  package var description: String { message }

  /// The failure to report for a provider that answered with `error`.
  package init(_ error: ProviderError) {
    if case .failed(let status, let message) = error {
      self.init(kind: .provider, status: status, message: message.isEmpty ? status.description : message)
    } else {
      self.init(kind: .provider, message: error.description)
    }
  }
}

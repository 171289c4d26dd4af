import RunnerProtocol

/// What a runner's scene said outside the replies, since it was opened: its
/// finish (with Apple's rule applied here again: a replacement that was not
/// allowed is dropped), a request to be drawn again or for more room, and a
/// violation (a second finish, or one the runner reported).
struct RunnerScene {
  private(set) var allowsReplacement = false
  /// Set once the provider finished: the replacement, or nil for none.
  private(set) var finished: String??
  private(set) var violation: String?
  /// Set when the provider asked, outside a request, to be drawn again.
  var needsRender = false
  /// Set when the provider asked for more room (`expandSheet`); never cleared.
  private(set) var wantsExpandedSheet = false

  /// A scene opened anew: nothing finished, drawn or broken yet.
  mutating func open(allowsReplacement: Bool) {
    self.allowsReplacement = allowsReplacement
    finished = nil
    violation = nil
    needsRender = false
  }

  /// Records an event the runner sent.
  mutating func record(_ event: SceneEvent) {
    switch event {
    case .finished(let translation) where finished == nil: finished = .some(allowsReplacement ? translation : nil)
    case .finished: violation = violation ?? "the provider called finish twice"
    case .renderRequested: needsRender = true
    case .expandSheet: wantsExpandedSheet = true
    case .violation(let message): violation = violation ?? message
    }
  }

  /// Whether anything happened that the front end must be told of.
  var hasChange: Bool { finished != nil || needsRender || violation != nil }
}

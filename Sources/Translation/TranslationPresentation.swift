import Core
import Foundation
import Presentation
import Service
import Synchronization
import System
import TerminalPopover

/// Shows the translation popover: the default provider's own scene for
/// `text`, in a window at the pointer in a graphical session (X11 or
/// Wayland), on the app's terminal otherwise; the counterpart of SwiftUI's
/// `translationPresentation(isPresented:text:attachmentAnchor:arrowEdge:replacementAction:)`.
///
/// Returns when the person dismisses the popover or the provider finishes.
/// `replacementAction` is called only with a complete replacement, after
/// the terminal is restored. The Replace button is the provider's, and the
/// host cannot remove it: without a `replacementAction` the provider is
/// told that replacement is not allowed (`allowsReplacement` is false), so
/// its button is disabled (Reverse) or not shown (Apertium), and no
/// replacement is ever delivered. Changing `text` after the call has no
/// effect, as with Apple's. If the language of the text cannot be detected,
/// the person is asked for it first.
///
/// The window is drawn by the translation-host installation's
/// `translation-host-desktop`, in a process of its own: GTK 4 is never
/// loaded into the app, so an app starts without it and an app with a GTK
/// main loop of its own keeps it to itself. Cancelling the task that awaits
/// the call closes the window and throws `CancellationError`.
///
/// The terminal is the process's controlling terminal (`/dev/tty`), so it
/// works while stdin and stdout are redirected. The popover (or the wait
/// for the window) runs on a thread of its own, never blocking the
/// cooperative pool. The provider runs as for a `TranslationSession`:
/// through the resident service when it is running, in a runner started
/// otherwise (here for the terminal, by `translation-host-desktop` for the window).
///
/// Ctrl-C pressed in the popover is a key, not a signal (the terminal is
/// in raw mode): it closes the popover and the call throws
/// `CancellationError`. Signals sent to the process (SIGTERM, SIGHUP,
/// SIGINT) are delivered to the app as usual, to its own handlers or
/// default action, once the popover has restored the terminal.
///
/// The call runs on its caller's actor (`isolation`), and so does
/// `replacementAction`: from main-actor code the action may touch main-actor
/// state, and it need not be `Sendable`, as with SwiftUI's modifier in a view.
///
/// - Throws: `TranslationError.internalError` when there is neither a
///   graphical session nor a terminal to draw on, `translation-host-desktop`
///   is missing, or the provider fails (its reason says which), and
///   `CancellationError` when the person presses Ctrl-C in the popover or
///   the task is cancelled while the window is open.
public func translationPresentation(
  text: String, attachmentAnchor: PopoverAttachmentAnchor = .screen, arrowEdge: Edge = .top,
  isolation: isolated (any Actor)? = #isolation, replacementAction: ((String) -> Void)? = nil
) async throws {
  let outcome = try await presented(
    text, allowsReplacement: replacementAction != nil, anchor: attachmentAnchor, arrowEdge: ArrowEdge(arrowEdge))
  if case .replaced(let replacement) = outcome { replacementAction?(replacement) }
}

/// The popover while `isPresented` is true, the counterpart of SwiftUI's
/// `translationPresentation(isPresented:text:attachmentAnchor:arrowEdge:replacementAction:)`:
/// returns at once when it is false; otherwise shows the popover as
/// `translationPresentation(text:…)` does, and sets it to false when the
/// popover closes (however it closes, as SwiftUI does when a popover is
/// dismissed), before `replacementAction` is called.
public func translationPresentation(
  isPresented: Binding<Bool>, text: String, attachmentAnchor: PopoverAttachmentAnchor = .screen, arrowEdge: Edge = .top,
  isolation: isolated (any Actor)? = #isolation, replacementAction: ((String) -> Void)? = nil
) async throws {
  guard isPresented.wrappedValue else { return }
  let outcome: PopoverOutcome
  do {
    outcome = try await presented(
      text, allowsReplacement: replacementAction != nil, anchor: attachmentAnchor, arrowEdge: ArrowEdge(arrowEdge))
  } catch {
    isPresented.wrappedValue = false
    throw error
  }
  isPresented.wrappedValue = false
  if case .replaced(let replacement) = outcome { replacementAction?(replacement) }
}

/// The popover's outcome: the desktop's in a graphical session, else the
/// terminal's, from a thread of its own.
private func presented(
  _ text: String, allowsReplacement: Bool, anchor: PopoverAttachmentAnchor, arrowEdge: ArrowEdge
) async throws -> PopoverOutcome {
  let environment = ProcessInfo.processInfo.environment
  if GraphicalSession.isAvailable(environment: environment) {
    return try await presentOnDesktop(
      text, allowsReplacement: allowsReplacement, anchor: anchor.point, arrowEdge: arrowEdge, environment)
  }
  let placement = PopoverPlacement(anchor: anchor.cell, arrowEdge: arrowEdge)
  return try await onThreadOfItsOwn {
    try presentOnTerminal(text, allowsReplacement: allowsReplacement, placement: placement, environment)
  }
}

/// `work`'s result, from a thread started for it. The runner's death signal
/// is tied to the thread that starts it: this thread starts it, and closes
/// it before it ends.
private func onThreadOfItsOwn<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
  try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
    let thread = Thread { continuation.resume(with: Result { try work() }) }
    thread.name = "translationPresentation"
    thread.start()
  }
}

/// The default provider's scene session, as a `TranslationSession` gets it.
private func defaultScene(_ environment: [String: String]) throws -> any SceneSession {
  try ProviderLaunch.scene(
    provider: nil, timeout: SessionBackend.defaultTimeout, usesService: true, environment: environment, notice: { _ in })
}

/// The popover for `text` with the default provider on the terminal, blocking.
private func presentOnTerminal(
  _ text: String, allowsReplacement: Bool, placement: PopoverPlacement, _ environment: [String: String]
) throws -> PopoverOutcome {
  do {
    guard try PopoverPresentation.isAvailable(environment: environment) else {
      throw TranslationError.internalError.because(
        "there is neither a graphical session nor a terminal to show the translation popover on")
    }
    let session = try defaultScene(environment)
    defer { session.close() }
    return try PopoverPresentation(placement: placement, environment: environment).present(
      session: session, text: text, allowsReplacement: allowsReplacement, sourceLanguage: nil, targetLanguage: nil)
  } catch {
    throw TranslationError.translating(error)
  }
}

/// The popover for `text` with the default provider in a window, drawn by
/// the session's resident desktop agent, else by the installation's
/// `translation-host-desktop run` (`PopoverProcess.present`): GTK is never
/// loaded into the app.
/// The replacement goes to the app, not the clipboard.
func presentOnDesktop(
  _ text: String, allowsReplacement: Bool, anchor: ScreenPoint?, arrowEdge: ArrowEdge, _ environment: [String: String]
) async throws -> PopoverOutcome {
  let candidates = Installation.current(environment: environment)?.desktopCandidates ?? []
  guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
    throw TranslationError.internalError.because(
      "the translation popover's window is drawn by \(Installation.desktopProgramName), which is not installed"
        + (candidates.isEmpty
          ? " (no translation-host installation was found)"
          : " (looked for \(candidates.joined(separator: " and ")))")
        + "; install translation-host with it (make install)")
  }
  let arguments =
    ["--desktop", "--arrow-edge=" + arrowEdge.rawValue] + (allowsReplacement ? ["--replace"] : [])
    + (anchor.map { ["--anchor=\($0.x),\($0.y)"] } ?? [])
  let popover = PopoverProcess(executable: executable, environment: environment)
  /// What closes the popover while it is open (its process group, unreaped,
  /// or its connection to the desktop agent), and whether the task was
  /// cancelled. It is closed only under this lock.
  let window = Mutex<(close: (@Sendable () -> Void)?, isCancelled: Bool)>((nil, false))
  let output = try await withTaskCancellationHandler {
    try await onThreadOfItsOwn {
      if window.withLock({ $0.isCancelled }) { throw CancellationError() }
      do throws(PopoverProcessError) {
        return try popover.present(
          arguments, text: text,
          started: { close in
            window.withLock {
              $0.close = close
              if $0.isCancelled { close() }
            }
          }, ending: { window.withLock { $0.close = nil } })
      } catch {
        throw TranslationError.internalError.because(error.description)
      }
    }
  } onCancel: {
    window.withLock {
      $0.isCancelled = true
      $0.close?()
    }
  }
  if window.withLock({ $0.isCancelled }) { throw CancellationError() }
  let reason = output.errorLine ?? "\(executable) \(output.status)"
  switch output.status {
  case .exited(0): return allowsReplacement ? .replaced(output.replacement) : .finished
  case .exited(2): return .dismissed
  case .exited(4): throw TranslationError.unsupportedLanguagePairing.because(reason)
  case .exited(let code) where code > 128: throw CancellationError()
  default: throw TranslationError.internalError.because(reason)
  }
}

extension PopoverAttachmentAnchor {
  /// The cell from 0, or nil for the whole screen.
  fileprivate var cell: CellPosition? {
    guard case .cell(let row, let column) = self else { return nil }
    return CellPosition(line: max(row - 1, 0), column: max(column - 1, 0))
  }

  /// The screen point, or nil for the pointer.
  fileprivate var point: ScreenPoint? {
    guard case .point(let x, let y) = self else { return nil }
    return ScreenPoint(x: max(x, 0), y: max(y, 0))
  }
}

extension ArrowEdge {
  fileprivate init(_ edge: Edge) {
    switch edge {
    case .top: self = .top
    case .bottom: self = .bottom
    case .leading: self = .leading
    case .trailing: self = .trailing
    }
  }
}

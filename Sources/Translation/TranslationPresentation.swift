import DesktopPopover
import Foundation
import Presentation
import Service
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
/// The terminal is the process's controlling terminal (`/dev/tty`), so it
/// works while stdin and stdout are redirected. The popover runs on a
/// thread of its own, never blocking the cooperative pool (on the desktop,
/// always the same one: GTK is used from one thread only). The provider
/// runs as for a `TranslationSession`: through the resident service when it
/// is running, in a runner started here otherwise.
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
///   graphical session nor a terminal to draw on, or the provider fails
///   (its reason says which), and
///   `CancellationError` when the person presses Ctrl-C in the popover.
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

/// The popover's outcome, from a thread of its own: the desktop's in a
/// graphical session (always on the same thread), else the terminal's.
private func presented(
  _ text: String, allowsReplacement: Bool, anchor: PopoverAttachmentAnchor, arrowEdge: ArrowEdge
) async throws -> PopoverOutcome {
  let environment = ProcessInfo.processInfo.environment
  let work: @Sendable () throws -> PopoverOutcome
  if GraphicalSession.isAvailable(environment: environment) {
    let placement = DesktopPlacement(anchor: anchor.point, arrowEdge: arrowEdge)
    work = { try presentOnDesktop(text, allowsReplacement: allowsReplacement, placement: placement, environment) }
    return try await DesktopThread.shared.run(work)
  }
  let placement = PopoverPlacement(anchor: anchor.cell, arrowEdge: arrowEdge)
  work = { try presentOnTerminal(text, allowsReplacement: allowsReplacement, placement: placement, environment) }
  return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PopoverOutcome, any Error>) in
    // The runner's death signal is tied to the thread that starts it: this
    // thread starts it, and closes it before it ends.
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

/// The popover for `text` with the default provider in a window, blocking.
/// The replacement goes to the app, not the clipboard.
private func presentOnDesktop(
  _ text: String, allowsReplacement: Bool, placement: DesktopPlacement, _ environment: [String: String]
) throws -> PopoverOutcome {
  do {
    let session = try defaultScene(environment)
    defer { session.close() }
    let popover = DesktopPopoverPresentation(
      placement: placement, environment: environment, note: { _ in }, keepOnClipboard: { _ in })
    return try popover.present(
      session: session, source: .text(text), allowsReplacement: allowsReplacement, sourceLanguage: nil,
      targetLanguage: nil
    ).outcome
  } catch {
    throw TranslationError.translating(error)
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

import DesktopPopover
import HostCommandLine
import Presentation
import Service
import System

/// The desktop of `translation-host-desktop`: `DesktopPopover`'s GTK 4 window,
/// clipboard holder, accelerator parser and resident agent behind
/// HostCommandLine's seam.
struct GtkDesktop: DesktopFrontEnd {
  func presentPopover(_ request: DesktopPopoverRequest, session: any SceneSession) throws -> PopoverOutcome {
    let popover = DesktopPopoverPresentation(
      placement: DesktopPlacement(
        anchor: request.anchor, arrowEdge: request.arrowEdge, parentWindow: request.parentWindow),
      environment: request.environment, note: request.note, keepOnClipboard: request.keepOnClipboard)
    return try popover.present(
      session: session, source: request.text.map { .text($0) } ?? .selection,
      allowsReplacement: request.allowsReplacement, sourceLanguage: request.sourceLanguage,
      targetLanguage: request.targetLanguage
    ).outcome
  }

  func holdClipboard(_ contents: ClipboardContents, unlessCopiedSince owner: Int32?, environment: [String: String]) throws {
    try ClipboardHolder.hold(contents, unlessCopiedSince: owner, environment: environment)
  }

  func shortcutKey(_ key: String) -> (name: String, swayName: String)? {
    Accelerator(parsing: key).map { ($0.name, $0.swayName) }
  }

  func runAgent(
    idleExit: Duration?, globalShortcut: String?, environment: [String: String], note: @escaping (String) -> Void,
    run: @escaping ([String], _ standardOutput: FileDescriptor?, _ standardError: FileDescriptor?) -> Int32
  ) throws -> Bool {
    try DesktopAgent(idleExit: idleExit, globalShortcut: globalShortcut, environment: environment, note: note) {
      request, output in
      run(request.arguments, output?.standardOutput, output?.standardError)
    }.run()
  }
}

import CGtk
import Presentation
import Service
import System
import TranslationViewTree

/// Drives `PopoverController` on GLib's main loop for either popover
/// surface (`PopoverWindow`, `LayerPopover`): hands it events, carries out
/// its effects (the background call, woken through a wake descriptor; the
/// content's change watch; the one deadline it asks for) and serves the
/// loop until it ends. The surface draws the controller's state and turns
/// its own input into events.
final class PopoverDriver {
  /// The content's focus, queue, call and ending, while `run` shows one.
  var controller: PopoverController?
  private(set) var content: (any PopoverContent)?
  private var call: BackgroundCall<SceneUpdate?>?
  /// Readable when the call in progress returned.
  private let wake: WakeDescriptor
  private var wakeSource: UInt32?
  /// The change watch's source, while armed; the deadline's, while one is due.
  private var changeSource: UInt32?
  private var deadlineSource: UInt32?
  /// Draws the controller's state (its `.redraw` effects).
  var redraw: () -> Void = {}
  /// Runs after a finished call's event was handled.
  var callFinished: () -> Void = {}
  /// Runs after each batch of effects was carried out (the end's excepted).
  var settled: () -> Void = {}

  init() throws {
    wake = try WakeDescriptor()
    wakeSource = GObjectBridge.onReadable(wake.descriptor) { [unowned self] in
      wake.drain()
      if let result = call?.result {
        call = nil
        dispatch(.callFinished(result))
        callFinished()
      }
      return true
    }
  }

  deinit {
    stop()
    if let wakeSource { g_source_remove(wakeSource) }
  }

  /// Shows `content` from `first` until the controller ends it.
  /// - Returns: its replacement, if any, or nil when it was dismissed.
  /// - Throws: `failure`'s error when the surface failed meanwhile, else the ending's.
  func run(_ content: any PopoverContent, first: ViewTree, failure: () -> DesktopPopoverError? = { nil }) throws
    -> String??
  {
    self.content = content
    var controller = PopoverController(content: content, first: first)
    let effects = controller.begin(at: .now)
    self.controller = controller
    carryOut(effects)
    while self.controller?.ending == nil { g_main_context_iteration(nil, 1) }
    let ending = self.controller!.ending!
    stop()
    self.controller = nil
    self.content = nil
    if let failure = failure() { throw failure }
    switch ending {
    case .finished(let translation): return .some(translation)
    case .dismissed: return nil
    case .failed(let error): throw error
    case .interrupted(let signal): throw DesktopPopoverError.interrupted(signal: signal)
    case .stillBusy(let tree): throw content.stillBusy(showing: tree)
    }
  }

  /// Hands `event` to the controller and does what it asks.
  func dispatch(_ event: PopoverEvent) {
    guard var controller, controller.ending == nil else { return }
    let effects = controller.handle(event, at: .now)
    self.controller = controller
    carryOut(effects)
  }

  private func carryOut(_ effects: [PopoverEffect]) {
    guard let content else { return }
    for effect in effects {
      switch effect {
      case .start(let work):
        // A request to the content answers the watch too.
        if let changeSource { g_source_remove(changeSource) }
        changeSource = nil
        call = BackgroundCall({ try work.perform(on: content) }, whenDone: { [wake] in wake.wake() })
      case .interrupt:
        // The runner is gone then, so the call returns at once.
        content.interrupt()
        call?.wait()
        call = nil
      case .redraw:
        redraw()
      case .watchChanges:
        do {
          let changes = try content.watchChanges()
          changeSource = GObjectBridge.onReadable(changes) { [unowned self] in
            changeSource = nil
            dispatch(.changeReady)
            return false
          }
        } catch {
          dispatch(.watchFailed(error))
        }
      case .end:
        stop()
        g_main_context_wakeup(nil)
        return
      }
    }
    scheduleDeadline()
    settled()
  }

  /// Sets the one timer the controller asked for, if any.
  private func scheduleDeadline() {
    if let deadlineSource { g_source_remove(deadlineSource) }
    deadlineSource = nil
    guard let deadline = controller?.nextDeadline else { return }
    deadlineSource = GObjectBridge.after(max(deadline - .now, .zero)) { [unowned self] in
      deadlineSource = nil
      dispatch(.deadline(.now))
    }
  }

  /// Removes the watch and the timer, and waits for a call still running.
  private func stop() {
    if let changeSource { g_source_remove(changeSource) }
    if let deadlineSource { g_source_remove(deadlineSource) }
    changeSource = nil
    deadlineSource = nil
    if let call {
      content?.interrupt()
      call.wait()
      self.call = nil
    }
  }
}

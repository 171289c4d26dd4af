import CGtk
import Presentation
import System

/// The unsafe seam between Swift and GObject: pointer casts between GTK's
/// types, and signal handlers as Swift closures. Every closure is retained
/// by its GObject connection and released when the connection goes
/// (`g_signal_connect_data`'s destroy notify), so handlers live exactly as
/// long as their widgets. GTK calls them on the main thread only.
enum GObjectBridge {
  typealias WidgetPointer = UnsafeMutablePointer<GtkWidget>

  /// `pointer` seen as a `T *`: GObject's upcasts and downcasts, which C spells `GTK_WINDOW (widget)`.
  static func cast<T>(_ pointer: UnsafeMutableRawPointer?, to type: T.Type = T.self) -> UnsafeMutablePointer<T> {
    pointer!.assumingMemoryBound(to: T.self)
  }

  static func cast<Source, T>(_ pointer: UnsafeMutablePointer<Source>?, to type: T.Type = T.self) -> UnsafeMutablePointer<T> {
    cast(UnsafeMutableRawPointer(pointer), to: type)
  }

  /// `pointer` as a type whose structure GTK 4 keeps private (`GtkLabel`, `GtkEditable`, `GdkSurface`).
  static func cast<Source>(_ pointer: UnsafeMutablePointer<Source>?) -> OpaquePointer { OpaquePointer(pointer!) }

  private final class Handler<Body> {
    let body: Body
    init(_ body: Body) { self.body = body }
  }

  private static let release: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
  }

  /// Releases a handler `retained` made, when GLib drops the source or hook that held it.
  private static let releaseHandler: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
  }

  /// `body` kept alive for GLib until `release` or `releaseHandler` is called with the pointer.
  private static func retained<Body>(_ body: Body) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(Handler(body) as AnyObject).toOpaque()
  }

  private static func connect<Body>(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ body: Body, thunk: GCallback
  ) {
    let data = retained(body)
    g_signal_connect_data(instance, signal, thunk, data, release, GConnectFlags(rawValue: 0))
  }

  private static func body<Body>(_ data: gpointer?, as: Body.Type) -> Body {
    (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! Handler<Body>).body
  }

  /// Connects a signal whose handler takes only the instance: `clicked`, `activate`, `changed`, `map`.
  static func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping () -> Void) {
    typealias Thunk = @convention(c) (gpointer?, gpointer?) -> Void
    let thunk: Thunk = { _, data in GObjectBridge.body(data, as: (() -> Void).self)() }
    connect(instance, signal, body, thunk: unsafeBitCast(thunk, to: GCallback.self))
  }

  /// Connects `notify::<property>`, whose handler takes the instance and the property's spec.
  static func onNotify(_ instance: UnsafeMutableRawPointer, property: String, _ body: @escaping () -> Void) {
    typealias Thunk = @convention(c) (gpointer?, gpointer?, gpointer?) -> Void
    let thunk: Thunk = { _, _, data in GObjectBridge.body(data, as: (() -> Void).self)() }
    connect(instance, "notify::" + property, body, thunk: unsafeBitCast(thunk, to: GCallback.self))
  }

  /// Connects a signal whose handler answers whether it handled it: `close-request`.
  static func onRequest(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping () -> Bool) {
    typealias Thunk = @convention(c) (gpointer?, gpointer?) -> gboolean
    let thunk: Thunk = { _, data in GObjectBridge.body(data, as: (() -> Bool).self)() ? 1 : 0 }
    connect(instance, signal, body, thunk: unsafeBitCast(thunk, to: GCallback.self))
  }

  /// Connects `key-pressed` of a `GtkEventControllerKey`: the key's keyval and modifiers; true if handled.
  static func onKeyPressed(_ controller: UnsafeMutableRawPointer, _ body: @escaping (UInt32, GdkModifierType) -> Bool) {
    typealias Thunk = @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean
    let thunk: Thunk = { _, keyval, _, state, data in
      GObjectBridge.body(data, as: ((UInt32, GdkModifierType) -> Bool).self)(keyval, state) ? 1 : 0
    }
    connect(controller, "key-pressed", body, thunk: unsafeBitCast(thunk, to: GCallback.self))
  }

  /// Sets the function that draws a `GtkDrawingArea`, given its cairo context and size.
  static func setDrawFunction(
    _ area: WidgetPointer, _ body: @escaping (OpaquePointer, Int32, Int32) -> Void
  ) {
    typealias Draw = @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void
    let draw: Draw = { _, cairo, width, height, data in
      guard let cairo else { return }
      GObjectBridge.body(data, as: ((OpaquePointer, Int32, Int32) -> Void).self)(cairo, width, height)
    }
    let data = retained(body)
    gtk_drawing_area_set_draw_func(cast(area), draw, data, releaseHandler)
  }

  /// Calls `body` in the main loop whenever `fd` is readable (or hung up),
  /// until `body` returns false or the source is removed.
  /// - Returns: the source id, for `g_source_remove`.
  static func onReadable(_ fd: FileDescriptor, _ body: @escaping () -> Bool) -> UInt32 {
    let data = retained(body)
    let callback: GUnixFDSourceFunc = { _, _, data in GObjectBridge.body(data, as: (() -> Bool).self)() ? 1 : 0 }
    let condition = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
    return g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd.rawValue, condition, callback, data, releaseHandler)
  }

  /// Calls `body` once in the main loop after `span`.
  /// - Returns: the source id, for `g_source_remove` before it fires.
  static func after(_ span: Duration, _ body: @escaping () -> Void) -> UInt32 {
    let data = retained(body)
    let callback: GSourceFunc = { data in
      GObjectBridge.body(data, as: (() -> Void).self)()
      return 0
    }
    return g_timeout_add_full(G_PRIORITY_DEFAULT, UInt32(clamping: span.pollMilliseconds), callback, data, releaseHandler)
  }

  /// Calls `body` on `signal` (SIGINT, SIGTERM, SIGHUP) in the main loop, instead of the default action.
  /// - Returns: the source id, for `g_source_remove`.
  static func onUnixSignal(_ signal: Int32, _ body: @escaping () -> Void) -> UInt32 {
    let data = retained(body)
    let callback: GSourceFunc = { data in
      GObjectBridge.body(data, as: (() -> Void).self)()
      return 1
    }
    return g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, callback, data, releaseHandler)
  }

  /// Calls `body` with every X event the X11 display receives, before GDK
  /// handles it (an emission hook of `GdkX11Display::xevent`: a handler would
  /// run after GDK's clipboard, which stops the emission for the selection
  /// requests it answers).
  /// - Returns: the hook's id, for `removeXEventHook`.
  static func addXEventHook(_ body: @escaping (UnsafePointer<XEvent>) -> Void) -> UInt {
    let signal = g_signal_lookup("xevent", gdk_x11_display_get_type())
    typealias Hook =
      @convention(c) (
        UnsafeMutablePointer<GSignalInvocationHint>?, guint, UnsafePointer<GValue>?, gpointer?
      ) -> gboolean
    let hook: Hook = { _, count, values, data in
      if count > 1, let values, let event = g_value_get_pointer(values + 1) {
        GObjectBridge.body(data, as: ((UnsafePointer<XEvent>) -> Void).self)(event.assumingMemoryBound(to: XEvent.self))
      }
      return 1
    }
    let data = retained(body)
    return g_signal_add_emission_hook(signal, 0, hook, data, releaseHandler)
  }

  /// Removes a hook `addXEventHook` added.
  static func removeXEventHook(_ id: UInt) {
    g_signal_remove_emission_hook(g_signal_lookup("xevent", gdk_x11_display_get_type()), id)
  }

  /// Reads a clipboard's text, running the main loop until it arrives:
  /// nil when it holds no text, the read failed, or the application that
  /// owns it did not answer within `timeout` (a hung one must not hang the popover).
  static func readText(_ clipboard: OpaquePointer, timeout: Duration = .seconds(2)) -> String? {
    final class Reply {
      var text: String?
      var done = false
    }
    let reply = Reply()
    let data = Unmanaged.passRetained(reply).toOpaque()
    let callback: GAsyncReadyCallback = { source, result, data in
      let reply = Unmanaged<Reply>.fromOpaque(data!).takeRetainedValue()
      var error: UnsafeMutablePointer<GError>?
      if let text = gdk_clipboard_read_text_finish(OpaquePointer(source), result, &error) {
        reply.text = String(cString: text)
        g_free(text)
      }
      if let error { g_error_free(error) }
      reply.done = true
    }
    gdk_clipboard_read_text_async(clipboard, nil, callback, data)
    MainLoop.run(until: .after(timeout)) { !reply.done }
    return reply.done ? reply.text : nil
  }

  /// Reads every format a clipboard offers, each whole, running the main
  /// loop meanwhile: nil when any read fails or takes longer than `timeout`
  /// (then the clipboard cannot be put back as it was), or when the whole
  /// exceeds `ClipboardContents`' limits.
  static func readContents(_ clipboard: OpaquePointer, timeout: Duration = .seconds(2)) -> ClipboardContents? {
    guard let formats = gdk_clipboard_get_formats(clipboard) else { return ClipboardContents(formats: []) }
    var count = 0
    guard let types = gdk_content_formats_get_mime_types(formats, &count) else {
      // Only GTypes, offered by this process: nothing another process could take.
      return ClipboardContents(formats: [])
    }
    let mimeTypes = (0..<count).compactMap { types[$0].map { String(cString: $0) } }
    guard mimeTypes.count <= ClipboardContents.formatLimit else { return nil }
    var read: [ClipboardContents.Format] = []
    var total = 0
    for mimeType in mimeTypes {
      guard let bytes = readBytes(clipboard, mimeType: mimeType, timeout: timeout) else { return nil }
      total += bytes.count
      guard total <= ClipboardContents.byteLimit else { return nil }
      read.append(ClipboardContents.Format(mimeType: mimeType, bytes: bytes))
    }
    return ClipboardContents(formats: read)
  }

  private final class StreamRead {
    var bytes: [UInt8]?
    var done = false
    let clipboard: OpaquePointer
    let cancellable = g_cancellable_new()!
    init(_ clipboard: OpaquePointer) { self.clipboard = clipboard }
    deinit { g_object_unref(UnsafeMutableRawPointer(cancellable)) }
  }

  /// One format's bytes: the clipboard's stream spliced into memory.
  private static func readBytes(_ clipboard: OpaquePointer, mimeType: String, timeout: Duration) -> [UInt8]? {
    let state = StreamRead(clipboard)
    let data = Unmanaged.passRetained(state).toOpaque()
    let opened: GAsyncReadyCallback = { source, result, data in
      let state = Unmanaged<StreamRead>.fromOpaque(data!).takeUnretainedValue()
      var error: UnsafeMutablePointer<GError>?
      guard let input = gdk_clipboard_read_finish(OpaquePointer(source), result, nil, &error) else {
        if let error { g_error_free(error) }
        state.done = true
        Unmanaged<StreamRead>.fromOpaque(data!).release()
        return
      }
      let memory = g_memory_output_stream_new_resizable()!
      let spliced: GAsyncReadyCallback = { source, result, data in
        let state = Unmanaged<StreamRead>.fromOpaque(data!).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        let stream = UnsafeMutablePointer<GOutputStream>(OpaquePointer(source))
        if g_output_stream_splice_finish(stream, result, &error) >= 0, error == nil,
          let bytes = g_memory_output_stream_steal_as_bytes(UnsafeMutablePointer(OpaquePointer(source)))
        {
          var size = 0
          let start = g_bytes_get_data(bytes, &size)
          state.bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
          g_bytes_unref(bytes)
        }
        if let error { g_error_free(error) }
        g_object_unref(UnsafeMutableRawPointer(source))
        state.done = true
      }
      let flags = GOutputStreamSpliceFlags(
        rawValue: G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE.rawValue | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET.rawValue)
      g_output_stream_splice_async(
        UnsafeMutablePointer<GOutputStream>(OpaquePointer(memory)), input, flags, G_PRIORITY_DEFAULT,
        state.cancellable, spliced, data)
      g_object_unref(UnsafeMutableRawPointer(input))
    }
    mimeType.withCString { type in
      var types: [UnsafePointer<CChar>?] = [type, nil]
      types.withUnsafeMutableBufferPointer { buffer in
        gdk_clipboard_read_async(clipboard, buffer.baseAddress, G_PRIORITY_DEFAULT, state.cancellable, opened, data)
      }
    }
    MainLoop.run(until: .after(timeout)) { !state.done }
    if !state.done {
      // Cancelled, the read ends on its own (releasing its reference) the next time the loop runs.
      g_cancellable_cancel(state.cancellable)
      MainLoop.run(until: .after(.milliseconds(200))) { !state.done }
      return nil
    }
    return state.bytes
  }

  /// Offers `contents` on `clipboard`, every format as it was read.
  static func setContents(_ clipboard: OpaquePointer, _ contents: ClipboardContents) {
    var providers: [UnsafeMutablePointer<GdkContentProvider>?] = contents.formats.map { format in
      let bytes = format.bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
      defer { g_bytes_unref(bytes) }
      return gdk_content_provider_new_for_bytes(format.mimeType, bytes)
    }
    let union = providers.withUnsafeMutableBufferPointer { gdk_content_provider_new_union($0.baseAddress, gsize($0.count)) }
    gdk_clipboard_set_content(clipboard, union)
    g_object_unref(UnsafeMutableRawPointer(union))
  }
}

import CGtk

/// What the desktop agent does once, when it starts, so that no popover
/// pays for it: GTK initialised with the popover's style (`GtkSession`), a
/// popover window with the kinds of widget a scene uses built, styled and
/// laid out unshown (widget classes, CSS, Pango's font map and the fonts
/// chosen), and text drawn once into an image (glyphs rasterised in cairo's
/// cache). Nothing is mapped: no window flashes on the screen.
enum PopoverWarmUp {
  /// A scene's usual widgets: a title, text in the sizes scenes use, a field, buttons, a spinner.
  static let sample = Widget.box(
    .vertical, spacing: 8, alignment: .start,
    children: [
      .label("Translation: Übersetzung, traducción", style: .title),
      .label("The quick brown fox jumps over the lazy dog. 0123456789 ¿¡«»—…", style: .body),
      .styled(WidgetStyle(classes: ["th-font-headline", "th-bold"]), .label("Hello, world", style: .body)),
      .entry(id: "field", placeholder: "Text", text: "", isSensitive: true),
      .box(
        .horizontal, spacing: 6, alignment: .center,
        children: [
          .button(id: "a", isSensitive: true, content: .label("Replace with Translation", style: .body)),
          .button(id: "b", isSensitive: true, content: .iconLabel(iconName: "edit-copy-symbolic", title: "Copy")),
        ]),
      .progress(label: nil, fraction: nil),
    ])

  /// Opens the display and warms GTK up for the popover.
  /// - Throws: `DesktopPopoverError.noDisplay` when GTK cannot open the display.
  static func run(environment: [String: String]) throws {
    let display = try GtkSession.open(environment: environment)
    let window = try PopoverWindow(
      display: display, title: "Translation", placement: DesktopPlacement(anchor: nil, arrowEdge: .top))
    window.prepareUnshown(sample)
    drawText(display)
  }

  /// Draws text with the popover's fonts into an image nobody sees.
  private static func drawText(_ display: OpaquePointer) {
    let label = gtk_label_new(nil)!
    g_object_ref_sink(UnsafeMutableRawPointer(label))
    defer { g_object_unref(UnsafeMutableRawPointer(label)) }
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 640, 64) else { return }
    defer { cairo_surface_destroy(surface) }
    guard let cairo = cairo_create(surface) else { return }
    defer { cairo_destroy(cairo) }
    for text in ["The quick brown fox jumps over the lazy dog. 0123456789", "<b>Übersetzung traducción ¿¡«»—…</b>"] {
      let layout = gtk_widget_create_pango_layout(label, nil)!
      pango_layout_set_markup(layout, text, -1)
      pango_cairo_show_layout(cairo, layout)
      g_object_unref(UnsafeMutableRawPointer(layout))
    }
  }
}

import CGtk
import Presentation

/// Paints the layer surface's frame with cairo and Pango: the outline with
/// its arrow (`OutlinePainter`'s path), the title row with its spinner, and
/// the content's layout (`LayerSceneLayout`), in the colours of GTK's
/// default theme, light or dark. Also measures text for the layout.
final class LayerScenePainter {
  /// The body font: the size GTK's default theme draws labels at.
  static let fontFamily = "Sans"
  static let fontSize = 11.0

  struct Palette {
    var background: (Double, Double, Double)
    var foreground: (Double, Double, Double)
    var button: (Double, Double, Double)
    var field: (Double, Double, Double)
    var border: (Double, Double, Double)
    var focus: (Double, Double, Double) = (0.21, 0.52, 0.89)

    static let light = Palette(
      background: (0.98, 0.98, 0.98), foreground: (0.18, 0.20, 0.21), button: (0.91, 0.91, 0.90),
      field: (1, 1, 1), border: (0.75, 0.75, 0.74))
    static let dark = Palette(
      background: (0.19, 0.19, 0.19), foreground: (0.93, 0.93, 0.93), button: (0.27, 0.27, 0.27),
      field: (0.14, 0.14, 0.14), border: (0.36, 0.36, 0.36))
  }

  /// The style sheet's named colours (`GtkSession.styleSheet`), as RGB.
  static let colours: [String: (Double, Double, Double)] = [
    "red": rgb(0xc01c28), "orange": rgb(0xc64600), "yellow": rgb(0x9c6e03), "green": rgb(0x26a269),
    "mint": rgb(0x2ec27e), "teal": rgb(0x2190a4), "cyan": rgb(0x1c71d8), "blue": rgb(0x1a5fb4),
    "indigo": rgb(0x613583), "purple": rgb(0x813d9c), "pink": rgb(0xc061cb), "brown": rgb(0x865e3c),
    "gray": rgb(0x77767b), "accentColor": rgb(0x3584e4),
  ]

  private static func rgb(_ value: Int) -> (Double, Double, Double) {
    (Double(value >> 16 & 0xff) / 255, Double(value >> 8 & 0xff) / 255, Double(value & 0xff) / 255)
  }

  let palette: Palette
  /// A 1×1 surface whose context lays text out for measuring.
  private let measuringSurface: OpaquePointer
  private let measuringContext: OpaquePointer
  private let measuringLayout: OpaquePointer

  init(dark: Bool) {
    palette = dark ? .dark : .light
    measuringSurface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
    measuringContext = cairo_create(measuringSurface)
    measuringLayout = pango_cairo_create_layout(measuringContext)
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(measuringLayout))
    cairo_destroy(measuringContext)
    cairo_surface_destroy(measuringSurface)
  }

  /// The size of `text` in `style`, wrapped at `wrapWidth` pixels.
  func measure(_ text: String, style: LayerSceneLayout.TextStyle, wrapWidth: Int) -> (width: Int, height: Int) {
    configure(measuringLayout, text: text, style: style, wrapWidth: wrapWidth)
    var width: Int32 = 0
    var height: Int32 = 0
    // Rounded up: a width rounded down would wrap the text when laid out at it.
    pango_layout_get_size(measuringLayout, &width, &height)
    let scale = Int(PANGO_SCALE)
    return ((Int(width) + scale - 1) / scale, (Int(height) + scale - 1) / scale)
  }

  private func configure(_ layout: OpaquePointer, text: String, style: LayerSceneLayout.TextStyle, wrapWidth: Int) {
    let font = pango_font_description_new()
    defer { pango_font_description_free(font) }
    pango_font_description_set_family(font, Self.fontFamily)
    pango_font_description_set_size(font, Int32(Self.fontSize * style.scale * Double(PANGO_SCALE)))
    pango_font_description_set_weight(font, style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
    pango_font_description_set_style(font, style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
    pango_layout_set_font_description(layout, font)
    pango_layout_set_width(layout, Int32(clamping: max(wrapWidth, 1) * Int(PANGO_SCALE)))
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    pango_layout_set_text(layout, text, -1)
  }

  /// Paints the popover into `pixels` (`width` × `height` logical pixels
  /// at `scale`, so `width` × `scale` pixels a row; ARGB32, `stride` bytes
  /// a row, cleared): `outline`, then `content` (already placed in the
  /// surface's logical pixels), with the focus ring on `focus`. At scale 2
  /// every line and glyph is drawn with twice the pixels, not enlarged.
  func paint(
    into pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, scale: Int = 1, stride: Int,
    outline: PopoverOutline, content: LayerSceneLayout, focus: String?, spinnerFrame: Int
  ) {
    guard
      let surface = cairo_image_surface_create_for_data(
        pixels, CAIRO_FORMAT_ARGB32, Int32(width * scale), Int32(height * scale), Int32(stride))
    else { return }
    defer { cairo_surface_destroy(surface) }
    guard let cairo = cairo_create(surface) else { return }
    cairo_scale(cairo, Double(scale), Double(scale))
    defer {
      cairo_destroy(cairo)
      cairo_surface_flush(surface)
    }
    paintOutline(outline, cairo)
    let layout = pango_cairo_create_layout(cairo)!
    defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
    for item in content.items {
      switch item {
      case .text(let text, let style, let frame, let wrapWidth):
        configure(layout, text: text, style: style, wrapWidth: wrapWidth)
        let colour = style.colour.flatMap { Self.colours[$0] } ?? palette.foreground
        set(cairo, colour, alpha: style.dim ? 0.55 : 1)
        cairo_move_to(cairo, Double(frame.x), Double(frame.y))
        pango_cairo_show_layout(cairo, layout)
      case .button(let id, let isEnabled, let frame):
        roundedRectangle(cairo, frame, radius: 5, inset: 0.5)
        set(cairo, palette.button, alpha: isEnabled ? 1 : 0.5)
        cairo_fill_preserve(cairo)
        set(cairo, palette.border, alpha: 1)
        cairo_set_line_width(cairo, 1)
        cairo_stroke(cairo)
        if id == focus { focusRing(cairo, frame) }
      case .field(let id, let text, let placeholder, let isEnabled, let frame):
        roundedRectangle(cairo, frame, radius: 5, inset: 0.5)
        set(cairo, palette.field, alpha: isEnabled ? 1 : 0.5)
        cairo_fill_preserve(cairo)
        set(cairo, palette.border, alpha: 1)
        cairo_set_line_width(cairo, 1)
        cairo_stroke(cairo)
        let shown = text.isEmpty ? placeholder : text
        var style = LayerSceneLayout.TextStyle()
        style.dim = text.isEmpty
        configure(layout, text: shown, style: style, wrapWidth: max(frame.width - 16, 1))
        pango_layout_set_wrap(layout, PANGO_WRAP_CHAR)
        pango_layout_set_width(layout, -1)
        var textWidth: Int32 = 0
        var textHeight: Int32 = 0
        pango_layout_get_pixel_size(layout, &textWidth, &textHeight)
        cairo_save(cairo)
        cairo_rectangle(cairo, Double(frame.x + 6), Double(frame.y), Double(frame.width - 12), Double(frame.height))
        cairo_clip(cairo)
        // The end of a long text shows, where the person types.
        let x = Double(frame.x + 8) - Double(max(Int(textWidth) - (frame.width - 16), 0))
        cairo_move_to(cairo, x, Double(frame.y) + Double(frame.height - Int(textHeight)) / 2)
        set(cairo, palette.foreground, alpha: style.dim ? 0.5 : 1)
        pango_cairo_show_layout(cairo, layout)
        if id == focus {
          // The caret after the text.
          let caret = x + Double(text.isEmpty ? 0 : textWidth) + 1.5
          cairo_rectangle(cairo, caret, Double(frame.y + 7), 1, Double(frame.height - 14))
          set(cairo, palette.foreground, alpha: 1)
          cairo_fill(cairo)
        }
        cairo_restore(cairo)
        if id == focus { focusRing(cairo, frame) }
      case .separator(let frame):
        cairo_rectangle(cairo, Double(frame.x), Double(frame.y), Double(frame.width), Double(frame.height))
        set(cairo, palette.foreground, alpha: 0.15)
        cairo_fill(cairo)
      case .progress(let fraction, let frame):
        if let fraction {
          roundedRectangle(cairo, frame, radius: 3, inset: 0)
          set(cairo, palette.foreground, alpha: 0.15)
          cairo_fill(cairo)
          var done = frame
          done.width = Int(Double(frame.width) * fraction)
          if done.width > 0 {
            roundedRectangle(cairo, done, radius: 3, inset: 0)
            set(cairo, palette.focus, alpha: 1)
            cairo_fill(cairo)
          }
        } else {
          spinner(cairo, frame, frame: spinnerFrame)
        }
      }
    }
  }

  private func paintOutline(_ outline: PopoverOutline, _ cairo: OpaquePointer) {
    OutlinePainter.path(outline, in: cairo, inset: 0)
    set(cairo, palette.background, alpha: 1)
    cairo_fill(cairo)
    OutlinePainter.path(outline, in: cairo, inset: 0.5)
    set(cairo, palette.foreground, alpha: 0.25)
    cairo_set_line_width(cairo, 1)
    cairo_stroke(cairo)
  }

  /// A spinner: an arc of a circle, turned by `frame` (the controller's spinner frame).
  func spinner(_ cairo: OpaquePointer, _ rect: ScreenRect, frame: Int) {
    let radius = Double(min(rect.width, rect.height)) / 2 - 1.5
    let (x, y) = (Double(rect.x) + Double(rect.width) / 2, Double(rect.y) + Double(rect.height) / 2)
    let start = Double(frame % 12) * Double.pi / 6
    cairo_new_path(cairo)
    cairo_arc(cairo, x, y, radius, start, start + Double.pi * 1.5)
    set(cairo, palette.foreground, alpha: 0.7)
    cairo_set_line_width(cairo, 2)
    cairo_stroke(cairo)
  }

  private func focusRing(_ cairo: OpaquePointer, _ frame: ScreenRect) {
    roundedRectangle(cairo, frame, radius: 5, inset: 1)
    set(cairo, palette.focus, alpha: 1)
    cairo_set_line_width(cairo, 2)
    cairo_stroke(cairo)
  }

  private func set(_ cairo: OpaquePointer, _ colour: (Double, Double, Double), alpha: Double) {
    cairo_set_source_rgba(cairo, colour.0, colour.1, colour.2, alpha)
  }

  private func roundedRectangle(_ cairo: OpaquePointer, _ rect: ScreenRect, radius r: Double, inset d: Double) {
    let (left, top) = (Double(rect.x) + d, Double(rect.y) + d)
    let (right, bottom) = (Double(rect.maxX) - d, Double(rect.maxY) - d)
    cairo_new_path(cairo)
    cairo_arc(cairo, right - r, top + r, r, -Double.pi / 2, 0)
    cairo_arc(cairo, right - r, bottom - r, r, 0, Double.pi / 2)
    cairo_arc(cairo, left + r, bottom - r, r, Double.pi / 2, Double.pi)
    cairo_arc(cairo, left + r, top + r, r, Double.pi, Double.pi * 3 / 2)
    cairo_close_path(cairo)
  }
}

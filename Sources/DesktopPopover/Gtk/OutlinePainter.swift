import CGtk
import Presentation

/// Draws the popover's outline with cairo: the body and its arrow as one
/// shape, filled with the theme's background, a thin border around both
/// (so the arrow is joined to the body, with no line across its base), and
/// with a compositor a soft shadow in the window's transparent margin.
enum OutlinePainter {
  /// The transparent margin around the outline that holds its shadow (with a compositor).
  static let shadowMargin = 12

  /// Draws `outline`, `margin` pixels in from the drawing's edges, in the colours of `widget`'s style.
  static func draw(_ outline: PopoverOutline, in cairo: OpaquePointer, widget: GObjectBridge.WidgetPointer, margin: Int) {
    var fill = GdkRGBA(red: 0.98, green: 0.98, blue: 0.98, alpha: 1)
    var foreground = GdkRGBA(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
    let style = gtk_widget_get_style_context(widget)
    _ = gtk_style_context_lookup_color(style, "theme_bg_color", &fill)
    gtk_style_context_get_color(style, &foreground)
    fill.alpha = 1
    cairo_save(cairo)
    defer { cairo_restore(cairo) }
    cairo_translate(cairo, Double(margin), Double(margin))
    if margin > 0 {
      // Strokes of decreasing width, each faint: darker near the outline, a little lower than it.
      cairo_save(cairo)
      cairo_translate(cairo, 0, 2)
      cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
      for width in stride(from: margin * 2, to: 0, by: -4) {
        path(outline, in: cairo, inset: 0)
        cairo_set_source_rgba(cairo, 0, 0, 0, 0.04)
        cairo_set_line_width(cairo, Double(width))
        cairo_stroke(cairo)
      }
      cairo_restore(cairo)
    } else {
      // The window's X shape holds the pixels whose centre is inside: drawn
      // without antialiasing, the fill covers exactly those.
      cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
    }
    path(outline, in: cairo, inset: 0)
    gdk_cairo_set_source_rgba(cairo, &fill)
    cairo_fill(cairo)
    path(outline, in: cairo, inset: 0.5)
    cairo_set_source_rgba(cairo, Double(foreground.red), Double(foreground.green), Double(foreground.blue), 0.25)
    cairo_set_line_width(cairo, 1)
    cairo_stroke(cairo)
  }

  /// The outline as one closed path, clockwise from the top-left corner,
  /// `inset` pixels inside it (the centre of a 1-pixel border).
  static func path(_ outline: PopoverOutline, in cairo: OpaquePointer, inset d: Double) {
    let body = outline.body
    let r = Double(outline.radius) - d
    let (left, top) = (Double(body.x) + d, Double(body.y) + d)
    let (right, bottom) = (Double(body.maxX) - d, Double(body.maxY) - d)
    let points = outline.arrowPoints
    func arrow(_ edge: ArrowEdge, dx: Double, dy: Double) {
      guard outline.arrowEdge == edge else { return }
      for point in points { cairo_line_to(cairo, point.x + dx, point.y + dy) }
    }
    cairo_new_path(cairo)
    cairo_move_to(cairo, left + r, top)
    arrow(.top, dx: 0, dy: d)
    cairo_line_to(cairo, right - r, top)
    cairo_arc(cairo, right - r, top + r, r, -Double.pi / 2, 0)
    arrow(.trailing, dx: -d, dy: 0)
    cairo_line_to(cairo, right, bottom - r)
    cairo_arc(cairo, right - r, bottom - r, r, 0, Double.pi / 2)
    arrow(.bottom, dx: 0, dy: -d)
    cairo_line_to(cairo, left + r, bottom)
    cairo_arc(cairo, left + r, bottom - r, r, Double.pi / 2, Double.pi)
    arrow(.leading, dx: d, dy: 0)
    cairo_line_to(cairo, left, top + r)
    cairo_arc(cairo, left + r, top + r, r, Double.pi, Double.pi * 3 / 2)
    cairo_close_path(cairo)
  }
}

import CGtk

/// A container of one child that is never wider than its limit unless the
/// child's minimum needs it, and gives the child its height for the width it
/// gets: text in it wraps at the limit.
///
/// It caps every label in it, so that labels need no cap of their own
/// (`max-width-chars` has GTK measure the font's average character width,
/// shaping Pango's sample text, at each measurement of the label); and it
/// answers a request for its width at a given height with its width at any
/// height: asked that, a box of wrapping labels has each label search for
/// the width, layout after layout. Between them, the popover shaped text
/// some 25,000 times before its first frame, 4,500 times now. A scrolled
/// window's `max-content-width` does not give its child the height for the
/// capped width.
enum WidthLimit {
  typealias WidgetPointer = GObjectBridge.WidgetPointer

  private static let key = "translation-host-width-limit"

  /// A box holding `child`, at most `width` pixels wide.
  static func make(around child: WidgetPointer, width: Int32) -> WidgetPointer {
    let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    gtk_widget_set_layout_manager(box, gtk_custom_layout_new(requestMode, measure, allocate))
    gtk_box_append(GObjectBridge.cast(box), child)
    set(box, width: width)
    return box
  }

  /// Changes the limit of a box `make` made.
  static func set(_ box: WidgetPointer, width: Int32) {
    g_object_set_data(GObjectBridge.cast(box), key, UnsafeMutableRawPointer(bitPattern: Int(max(width, 1))))
    gtk_widget_queue_resize(box)
  }

  private static let requestMode: GtkCustomRequestModeFunc = { _ in GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH }

  private static let measure: GtkCustomMeasureFunc = { box, orientation, forSize, minimum, natural, _, _ in
    guard let box, let child = gtk_widget_get_first_child(box) else { return }
    var childMinimum: Int32 = 0
    var childNatural: Int32 = 0
    let limit = Int32(Int(bitPattern: g_object_get_data(GObjectBridge.cast(box), key)))
    if orientation == GTK_ORIENTATION_HORIZONTAL {
      // Its width whatever the height (see above).
      gtk_widget_measure(child, orientation, -1, &childMinimum, &childNatural, nil, nil)
      minimum?.pointee = childMinimum
      natural?.pointee = max(childMinimum, min(childNatural, limit))
    } else {
      // Without a width to measure for, the height for the width the box takes.
      var width = forSize
      if width < 0 {
        var widthMinimum: Int32 = 0
        var widthNatural: Int32 = 0
        gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, &widthMinimum, &widthNatural, nil, nil)
        width = max(widthMinimum, min(widthNatural, limit))
      }
      gtk_widget_measure(child, orientation, width, &childMinimum, &childNatural, nil, nil)
      minimum?.pointee = childMinimum
      natural?.pointee = childNatural
    }
  }

  private static let allocate: GtkCustomAllocateFunc = { box, width, height, baseline in
    guard let box, let child = gtk_widget_get_first_child(box) else { return }
    gtk_widget_allocate(child, width, height, baseline, nil)
  }
}

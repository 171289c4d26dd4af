import CGtk

/// Builds the GTK widgets of a `Widget` plan and connects its controls to
/// the popover: a press, an edit, Enter in a field.
struct WidgetFactory {
  typealias WidgetPointer = GObjectBridge.WidgetPointer

  var onPress: (String) -> Void
  var onEdit: (String, String) -> Void
  var onSubmit: (String) -> Void

  /// The widget for `plan` inside a box along `axis`; each control is recorded in `controls` by id.
  func make(_ plan: Widget, along axis: Widget.Orientation, controls: inout [String: WidgetPointer]) -> WidgetPointer {
    switch plan {
    case .box(let orientation, let spacing, let alignment, let children):
      let box = gtk_box_new(orientation == .vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, Int32(spacing))!
      for child in children {
        let widget = make(child, along: orientation, controls: &controls)
        switch (orientation, child) {
        case (.vertical, .spacer): break
        case (.vertical, .label), (.vertical, .styled(_, .label)):
          // A wrapping label fills the width and aligns its lines: left
          // alone, GTK wraps it to a narrow column.
          gtk_widget_set_halign(widget, GTK_ALIGN_FILL)
          Self.label(in: widget).map { gtk_label_set_xalign(GObjectBridge.cast($0), Self.fraction(alignment)) }
        case (.vertical, _): gtk_widget_set_halign(widget, Self.align(alignment))
        case (.horizontal, _): gtk_widget_set_valign(widget, Self.align(alignment))
        }
        gtk_box_append(GObjectBridge.cast(box), widget)
      }
      return box
    case .label(let text, let style):
      return Self.label(text, bold: style == .title)
    case .iconLabel(let iconName, let title):
      let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
      if let iconName { gtk_box_append(GObjectBridge.cast(box), gtk_image_new_from_icon_name(iconName)) }
      gtk_box_append(GObjectBridge.cast(box), Self.label(title, bold: false))
      return box
    case .button(let id, let isSensitive, let content):
      let button = gtk_button_new()!
      gtk_button_set_child(GObjectBridge.cast(button), make(content, along: .horizontal, controls: &controls))
      gtk_widget_set_sensitive(button, isSensitive ? 1 : 0)
      GObjectBridge.onSignal(button, "clicked") { [onPress] in onPress(id) }
      controls[id] = button
      return button
    case .entry(let id, let placeholder, let text, let isSensitive):
      let entry = gtk_entry_new()!
      gtk_editable_set_text(GObjectBridge.cast(entry), text)
      gtk_entry_set_placeholder_text(GObjectBridge.cast(entry), placeholder)
      gtk_widget_set_sensitive(entry, isSensitive ? 1 : 0)
      gtk_widget_set_hexpand(entry, 1)
      GObjectBridge.onSignal(entry, "changed") { [onEdit] in
        onEdit(id, String(cString: gtk_editable_get_text(GObjectBridge.cast(entry))))
      }
      GObjectBridge.onSignal(entry, "activate") { [onSubmit] in onSubmit(id) }
      controls[id] = entry
      return entry
    case .spacer:
      let spacer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
      if axis == .vertical { gtk_widget_set_vexpand(spacer, 1) } else { gtk_widget_set_hexpand(spacer, 1) }
      return spacer
    case .separator(let orientation):
      return gtk_separator_new(orientation == .vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL)
    case .progress(let label, let fraction):
      let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
      if let fraction {
        let bar = gtk_progress_bar_new()!
        gtk_progress_bar_set_fraction(GObjectBridge.cast(bar), fraction)
        gtk_widget_set_hexpand(bar, 1)
        gtk_widget_set_valign(bar, GTK_ALIGN_CENTER)
        gtk_box_append(GObjectBridge.cast(box), bar)
      } else {
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(GObjectBridge.cast(spinner))
        gtk_box_append(GObjectBridge.cast(box), spinner)
      }
      if let label { gtk_box_append(GObjectBridge.cast(box), Self.label(label, bold: false)) }
      return box
    case .image(let iconName, let systemName):
      guard let iconName else { return Self.label("[\(systemName)]", bold: false) }
      return gtk_image_new_from_icon_name(iconName)
    case .styled(let style, let content):
      let widget = make(content, along: axis, controls: &controls)
      if let margins = style.margins {
        gtk_widget_set_margin_top(widget, Int32(margins[0]))
        gtk_widget_set_margin_start(widget, Int32(margins[1]))
        gtk_widget_set_margin_bottom(widget, Int32(margins[2]))
        gtk_widget_set_margin_end(widget, Int32(margins[3]))
      }
      for name in style.classes { gtk_widget_add_css_class(widget, name) }
      if style.fillsWidth { gtk_widget_set_hexpand(widget, 1) }
      return widget
    }
  }

  /// The label `widget` is, if it is one (a styled label is the label itself).
  private static func label(in widget: WidgetPointer) -> WidgetPointer? {
    g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type())
      != 0 ? widget : nil
  }

  /// A wrapping label showing `text` as it is: provider text is never parsed
  /// as markup. It wraps at the width it gets (`PopoverWindow.maximumContentWidth`).
  static func label(_ text: String, bold: Bool) -> WidgetPointer {
    let label = gtk_label_new(text)!
    gtk_label_set_wrap(GObjectBridge.cast(label), 1)
    gtk_label_set_wrap_mode(GObjectBridge.cast(label), PANGO_WRAP_WORD_CHAR)
    gtk_label_set_xalign(GObjectBridge.cast(label), 0)
    if bold { gtk_widget_add_css_class(label, "popover-title") }
    return label
  }

  private static func fraction(_ alignment: Widget.Alignment) -> Float {
    switch alignment {
    case .start: 0
    case .center: 0.5
    case .end: 1
    }
  }

  private static func align(_ alignment: Widget.Alignment) -> GtkAlign {
    switch alignment {
    case .start: GTK_ALIGN_START
    case .center: GTK_ALIGN_CENTER
    case .end: GTK_ALIGN_END
    }
  }
}

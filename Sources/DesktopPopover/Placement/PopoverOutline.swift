import Presentation

/// The popover's outline in its window's pixels: the body, a rectangle
/// with rounded corners, and the arrow joined to one of its edges, the tip
/// at the edge of the window. The window draws it; without a compositor it
/// is also the window's X shape, so that the corners and the sides of the
/// arrow show the windows beneath instead of an opaque square.
package struct PopoverOutline: Equatable, Sendable {
  /// The radius of the body's corners.
  package static let cornerRadius = 10

  /// The window's size (the arrow's strip included, the shadow's margin not).
  package var width: Int
  package var height: Int
  /// The side the arrow is on and its tip's offset along that side; nil: no arrow.
  package var arrowEdge: ArrowEdge?
  package var arrowOffset: Int
  package var radius: Int

  package init(width: Int, height: Int, arrowEdge: ArrowEdge?, arrowOffset: Int, radius: Int = Self.cornerRadius) {
    self.width = width
    self.height = height
    self.arrowEdge = arrowEdge
    self.arrowOffset = arrowOffset
    self.radius = radius
  }

  /// The body: the window less the arrow's strip.
  package var body: ScreenRect {
    let length = arrowEdge == nil ? 0 : DesktopPlacement.arrowLength
    switch arrowEdge {
    case .top: return ScreenRect(x: 0, y: length, width: width, height: height - length)
    case .bottom: return ScreenRect(x: 0, y: 0, width: width, height: height - length)
    case .leading: return ScreenRect(x: length, y: 0, width: width - length, height: height)
    case .trailing: return ScreenRect(x: 0, y: 0, width: width - length, height: height)
    case nil: return ScreenRect(x: 0, y: 0, width: width, height: height)
    }
  }

  /// The arrow's three corners, base first, tip in the middle: a triangle
  /// as long as `DesktopPlacement.arrowLength` and twice as wide.
  package var arrowPoints: [(x: Double, y: Double)] {
    let (tip, half) = (Double(arrowOffset), Double(DesktopPlacement.arrowLength))
    let (w, h) = (Double(width), Double(height))
    switch arrowEdge {
    case .top: return [(tip - half, half), (tip, 0), (tip + half, half)]
    case .bottom: return [(tip + half, h - half), (tip, h), (tip - half, h - half)]
    case .leading: return [(half, tip + half), (0, tip), (half, tip - half)]
    case .trailing: return [(w - half, tip - half), (w, tip), (w - half, tip + half)]
    case nil: return []
    }
  }

  /// The pixels inside the outline (those whose centre is), as rectangles
  /// from top to bottom and left to right, rows with the same spans merged:
  /// the X shape (banded: the rectangles of a band share their rows).
  package var rectangles: [ScreenRect] {
    var result: [ScreenRect] = []
    var previous: [Range<Int>] = []
    var band = 0
    for row in 0..<max(height, 0) {
      let spans = spans(row: row)
      if spans == previous && !spans.isEmpty {
        for index in band..<result.count { result[index].height += 1 }
      } else {
        band = result.count
        result += spans.map { ScreenRect(x: $0.lowerBound, y: row, width: $0.count, height: 1) }
      }
      previous = spans
    }
    return result
  }

  /// The columns of `row` inside the outline: the body's (inset at its
  /// rounded corners) joined with the arrow's.
  func spans(row: Int) -> [Range<Int>] {
    let centre = Double(row) + 0.5
    var spans: [Range<Int>] = []
    let body = self.body
    if centre > Double(body.y) && centre < Double(body.maxY) {
      let inset = Self.inset(centre - Double(body.y), Double(body.maxY) - centre, radius: Double(radius))
      spans.append((body.x + inset)..<(body.maxX - inset))
    }
    if let arrow = arrowSpan(centre: centre) { spans.append(arrow) }
    return Self.merged(spans)
  }

  /// How far the body's row starts in from its side, `top` and `bottom`
  /// pixels from its edges (at a corner, where the circle is).
  private static func inset(_ top: Double, _ bottom: Double, radius: Double) -> Int {
    let distance = min(top, bottom)
    guard distance < radius else { return 0 }
    let dy = radius - distance
    // The first pixel centre inside the circle.
    return Int((radius - (radius * radius - dy * dy).squareRoot() - 0.5).rounded(.up))
  }

  /// The arrow's pixels on the row whose centre is `centre` (those
  /// whose centre is inside the triangle), in window columns.
  private func arrowSpan(centre: Double) -> Range<Int>? {
    guard let arrowEdge else { return nil }
    let length = Double(DesktopPlacement.arrowLength)
    let tip = Double(arrowOffset)
    switch arrowEdge {
    case .top, .bottom:
      let depth = arrowEdge == .top ? centre : Double(height) - centre
      guard depth > 0 && depth <= length else { return nil }
      let low = Int((tip - depth - 0.5).rounded(.up))
      let high = Int((tip + depth - 0.5).rounded(.down))
      return low <= high ? low..<(high + 1) : nil
    case .leading, .trailing:
      let half = length - abs(centre - tip)
      guard half > 0 else { return nil }
      if arrowEdge == .leading {
        return Int((length - half - 0.5).rounded(.up))..<Int(length)
      }
      let start = width - Int(length)
      return start..<(start + Int((half - 0.5).rounded(.down)) + 1)
    }
  }

  private static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) where !span.isEmpty {
      if let last = result.last, span.lowerBound <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
      } else {
        result.append(span)
      }
    }
    return result
  }
}
